import { css } from 'styled-system/css';
import { Alert } from '@/ui/alert.tsx';
import { Button } from '@/ui/button.tsx';

/** docs/product-rules.md §8 "Generic": the doctor's own data that could not be loaded. */
export const LOAD_ERROR_TEXTS = {
  schedule: 'Erro ao carregar sua agenda',
  profile: 'Erro ao carregar seu perfil',
  retry: 'Tentar novamente',
  /** What the error says when it has nothing more precise. */
  notFound: 'Seu perfil de médico não foi encontrado.',
  profileFetch: 'Erro ao buscar perfil de médico.',
} as const;

/**
 * A load that failed for real (never offline with rows kept): its title (unless the page's
 * heading says it), what went wrong — 'Seu perfil de médico não foi encontrado.' when nothing
 * more is known — and 'Tentar novamente'.
 */
export function LoadError({
  title,
  lines,
  onRetry,
}: {
  title?: string;
  lines?: readonly (string | null)[];
  onRetry: () => void;
}) {
  const shown = (lines ?? []).filter((line): line is string => Boolean(line));
  return (
    <Alert tone="destructive" role="alert" title={title}>
      {(shown.length > 0 ? shown : [LOAD_ERROR_TEXTS.notFound]).map((line) => (
        <p key={line}>{line}</p>
      ))}
      <Button variant="outline" size="sm" className={css({ mt: '3' })} onClick={onRetry}>
        {LOAD_ERROR_TEXTS.retry}
      </Button>
    </Alert>
  );
}
