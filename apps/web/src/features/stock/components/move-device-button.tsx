import { Button } from '@mantine/core';
import { IconTruckDelivery } from '@tabler/icons-react';
import { useState } from 'react';
import { MoveDevicesModal } from './move-devices-modal';

/** Move: one device in stock to another stock location (its page); a device with a customer is not moved. */
export function MoveDeviceButton({ serialNumber }: { serialNumber: string }) {
  const [moving, setMoving] = useState(false);
  return (
    <>
      <Button variant="default" leftSection={<IconTruckDelivery size={16} />} onClick={() => setMoving(true)}>
        Move
      </Button>
      <MoveDevicesModal serials={moving ? [serialNumber] : null} onClose={() => setMoving(false)} />
    </>
  );
}
