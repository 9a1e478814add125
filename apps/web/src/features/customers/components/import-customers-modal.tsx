import { useFileUpload } from '@/hooks/use-file-upload';
import { CsvImportModal } from '@/components/ui/csv-import-modal';
import { useImportCustomers } from '../api/import-customers';

export const IMPORT_FAILED = 'Failed to import customers';

/** The columns an import understands; the first three are required. Same as the export's header. */
export const IMPORT_COLUMNS = [
  'customer_name',
  'id_number',
  'phone_contact',
  'email',
  'country',
  'gender',
  'date_of_birth',
  'marital_status',
  'county',
  'constituency',
  'ward',
  'sub_location',
  'village',
  'postal_address',
  'occupation',
  'employer_name',
  'education_level',
  'preferred_language',
  'customer_type',
  'agent_id',
  'status',
];

/** Uploads a CSV of customers (field csv_file) with a progress bar, then shows what was imported. */
export function ImportCustomersModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const upload = useFileUpload();
  const importer = useImportCustomers(upload.onProgress);
  return (
    <CsvImportModal
      opened={opened}
      onClose={onClose}
      title="Import Customers from CSV"
      noun="customers"
      failed={IMPORT_FAILED}
      columns={IMPORT_COLUMNS}
      templateName="customers-template.csv"
      description={
        <>
          The first row names the columns. <b>customer_name</b>, <b>id_number</b> and <b>phone_contact</b> are required;
          any other customer field may follow. Customers whose ID number is already registered are skipped, so uploading
          the same file twice imports nothing twice.
        </>
      }
      upload={upload}
      importer={importer}
    />
  );
}
