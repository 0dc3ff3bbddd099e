export { LegalPage } from './legal-page.tsx';
export type { LegalDocumentKey } from './legal-texts.ts';
