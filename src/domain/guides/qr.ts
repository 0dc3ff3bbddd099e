/** Spec "Guide page": the QR encodes the guide's qr_text, else 'protocolo:{protocol}'. */
export function guideQrValue(guide: { qr_text: string | null; protocolo: string }): string {
  return guide.qr_text?.trim() || `protocolo:${guide.protocolo}`;
}

/** Spec §9: QR size 80, error correction H. */
export const GUIDE_QR_SIZE = 80;
export const GUIDE_QR_LEVEL = 'H';
