import { lazy } from 'react';

/**
 * What other features may use of the guide: the page, and its documents for cards and pages.
 *
 * The page is lazy: re-exporting it directly made every importer of this index (the doctor's
 * and patient's appointment cards) bundle it, its PIX QR code (qrcode.react) and its payment
 * section, +17.7 KB gzip on the doctor's dashboard. The app's /guia route imports
 * guide-page.tsx itself.
 */
export const GuidePage = lazy(() =>
  import('./guide-page.tsx').then((m) => ({ default: m.GuidePage })),
);
export { GuideDocumentActions } from './guide-documents.tsx';
