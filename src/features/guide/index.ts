/** What other features may use of the guide: the guide page itself. */
export { GuidePage } from './guide-page.tsx';
