/** Moved to components/ (shared with the retailer's own signature); kept so old imports work. */
export { useSignaturePad } from '../../components/use-signature-pad';
