/** Moved to components/ (shared with the retailer's own signature); kept so old imports work. */
export { SignaturePadCard } from '../../../components/signature-pad-card';
