import { ITEM_IMPORT_COLUMNS } from '@kidogo/contracts';
import { CsvImportModal } from '@/components/ui/csv-import-modal';
import { useFileUpload } from '@/hooks/use-file-upload';
import { useImportDevices } from '../api/import-devices';

export const DEVICE_IMPORT_FAILED = 'Failed to import devices';

/** Uploads the device maker's CSV (field file) with a progress bar, then shows what was imported. */
export function ImportDevicesModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const upload = useFileUpload();
  const importer = useImportDevices(upload.onProgress);
  return (
    <CsvImportModal
      opened={opened}
      onClose={onClose}
      title="Import Devices from CSV"
      noun="devices"
      failed={DEVICE_IMPORT_FAILED}
      columns={ITEM_IMPORT_COLUMNS}
      templateName="devices-template.csv"
      description={
        <>
          The first row names the columns. <b>serial_number</b> and <b>product_name</b> are required. <b>secret_key</b> (32
          hexadecimal characters) and <b>starting_code</b> are the device maker&apos;s factory keys: left out, new ones are
          made. For a device moved from another system, <b>token_count</b> is the count of the last code it accepted.
          <b>location</b> names the stock location it is kept at (add it in Stock Locations first); left empty, none.
          Serials already registered are skipped, so uploading the same file twice imports nothing twice.
        </>
      }
      upload={upload}
      importer={importer}
    />
  );
}
