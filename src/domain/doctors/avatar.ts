/** docs/product-rules.md §5: the avatar accepts png, jpeg and webp; the bucket enforces the same list. */
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** The avatars bucket's file_size_limit (2 MiB), checked before sending anything. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export const AVATAR_MESSAGES = {
  wrongType: 'Formato não suportado. Envie uma imagem PNG, JPEG ou WEBP.',
  tooLarge: 'A foto deve ter no máximo 2 MB. Escolha uma imagem menor.',
  empty: 'O arquivo está vazio. Escolha outra imagem.',
} as const;

/** Why a chosen file cannot be the avatar, or null when it can. */
export function avatarProblem(file: { type: string; size: number }): string | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return AVATAR_MESSAGES.wrongType;
  if (file.size === 0) return AVATAR_MESSAGES.empty;
  if (file.size > AVATAR_MAX_BYTES) return AVATAR_MESSAGES.tooLarge;
  return null;
}

/**
 * docs/product-rules.md §7: '{user id}/{timestamp}_{filename}'. The first folder is what the bucket's policies
 * check; the file name keeps only letters, digits, dot, dash and underscore (accents dropped),
 * so any name a phone gives a photo makes a valid object key.
 */
export function avatarPath(userId: string, epochMs: number, filename: string): string {
  const safe = filename
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(-80);
  return `${userId}/${epochMs}_${safe || 'foto'}`;
}
