import { TicketsCard } from './tickets-card';

/** Service Tickets of one device, on its page: the tickets card for its serial number. */
export function DeviceTicketsCard({ serialNumber }: { serialNumber: string }) {
  return <TicketsCard serialNumber={serialNumber} />;
}
