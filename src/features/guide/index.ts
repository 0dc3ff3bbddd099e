/** What other features may use of the guide: the page, and its documents for cards and pages. */
export { GuidePage } from './guide-page.tsx';
export { GuideDocumentActions } from './guide-documents.tsx';
