/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_DOCS_URL?: string;
  readonly VITE_SUPPORT_URL?: string;
  readonly VITE_CONTACT_EMAIL?: string;
}
