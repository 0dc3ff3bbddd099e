import { useEffect, useId, useMemo, useState, type ChangeEvent } from 'react';
import { map } from 'rxjs';
import { css } from 'styled-system/css';
import type { MedicoDoc, SyncEngine } from '../../../sync/index.ts';
import { AVATAR_TYPES, avatarProblem } from '@/domain/doctors/avatar.ts';
import { shownMessage } from '@/domain/errors/map-server-error.ts';
import { showToast } from '@/lib/toast.ts';
import { useObservable } from '@/session/sync-provider.tsx';
import { useSupabase } from '@/session/supabase-context.ts';
import { Alert } from '@/ui/alert.tsx';
import { Button } from '@/ui/button.tsx';
import { uploadAvatar } from './api.ts';

export const AVATAR_TEXTS = {
  title: 'Foto do perfil',
  choose: 'Escolher foto',
  change: 'Trocar foto',
  upload: 'Salvar foto',
  discard: 'Cancelar',
  hint: 'PNG, JPEG ou WEBP, até 2 MB.',
  preview: 'Pré-visualização da nova foto',
  current: 'Foto atual',
  none: 'Sem foto',
  offline:
    'O envio da foto precisa de conexão com a internet. Tente de novo quando estiver online.',
  uploadErrorTitle: 'Erro no Upload',
  uploadErrorDescription: 'Não foi possível enviar a foto. Tente novamente.',
  saveErrorTitle: 'Erro ao salvar foto',
  saveErrorDescription:
    'A foto foi enviada, mas não pudemos salvá-la no seu perfil. Tente novamente.',
  savedTitle: 'Foto atualizada!',
  savedDescription: 'Sua nova foto já aparece no seu perfil público.',
} as const;

const photo = css({
  w: '28',
  h: '28',
  borderRadius: 'full',
  objectFit: 'cover',
  bg: 'bg.muted',
  flexShrink: '0',
});

/** The object URL of a chosen file, revoked when the choice changes or the screen closes. */
function usePreview(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

/**
 * The photo is sent to storage (`uploadAvatar`, api.ts) and its public URL becomes
 * medicos.image_url (a local-first write like the rest of the profile). The upload itself
 * needs the network, so offline it is refused with a reason.
 */
export function AvatarUpload({
  engine,
  doctor,
  userId,
}: {
  engine: SyncEngine;
  doctor: MedicoDoc;
  userId: string;
}) {
  const supabase = useSupabase();
  const inputId = useId();
  const online$ = useMemo(() => engine.status$.pipe(map((s) => s.online)), [engine]);
  const online = useObservable(online$, true);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const preview = usePreview(file);

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    event.target.value = '';
    if (!chosen) return;
    const why = avatarProblem(chosen);
    setProblem(why);
    setFile(why ? null : chosen);
  }

  async function upload() {
    if (!file) return;
    setUploading(true);
    const sent = await uploadAvatar(supabase, userId, file);
    if (!sent.ok) {
      setUploading(false);
      console.warn('avatar upload failed', sent.error.cause);
      showToast({
        tone: 'error',
        title: AVATAR_TEXTS.uploadErrorTitle,
        description: online
          ? shownMessage(sent.error, AVATAR_TEXTS.uploadErrorDescription)
          : AVATAR_TEXTS.offline,
      });
      return;
    }
    const saved = await engine.updateDoctorProfile({ image_url: sent.value });
    setUploading(false);
    if (!saved.ok) {
      showToast({
        tone: 'error',
        title: AVATAR_TEXTS.saveErrorTitle,
        description: AVATAR_TEXTS.saveErrorDescription,
      });
      return;
    }
    setFile(null);
    showToast({
      tone: 'success',
      title: AVATAR_TEXTS.savedTitle,
      description: AVATAR_TEXTS.savedDescription,
    });
  }

  const name = doctor.public_name ?? doctor.name ?? '';
  return (
    <section aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`} className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
        {AVATAR_TEXTS.title}
      </h2>
      <div
        className={css({
          mt: '3',
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: '4',
        })}
      >
        {preview ? (
          <img src={preview} alt={AVATAR_TEXTS.preview} className={photo} />
        ) : doctor.image_url ? (
          <img src={doctor.image_url} alt={`${AVATAR_TEXTS.current}: ${name}`} className={photo} />
        ) : (
          <div
            role="img"
            aria-label={AVATAR_TEXTS.none}
            className={css({
              w: '28',
              h: '28',
              borderRadius: 'full',
              borderWidth: '1px',
              borderColor: 'border.strong',
              bg: 'bg.muted',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              fontSize: '3xl',
              fontWeight: 'bold',
              color: 'fg.muted',
            })}
          >
            {name
              .replace(/^(Dra?\.?\s+)/i, '')
              .charAt(0)
              .toUpperCase()}
          </div>
        )}
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', minW: '0' })}>
          <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
            <label htmlFor={inputId} className={css({ cursor: 'pointer' })}>
              <span
                className={css({
                  display: 'inline-flex',
                  alignItems: 'center',
                  h: '9',
                  px: '3',
                  borderWidth: '1px',
                  borderColor: 'border.strong',
                  borderRadius: 'md',
                  fontSize: 'sm',
                  fontWeight: 'medium',
                  _hover: { bg: 'bg.muted' },
                })}
              >
                {doctor.image_url || file ? AVATAR_TEXTS.change : AVATAR_TEXTS.choose}
              </span>
            </label>
            <input
              id={inputId}
              type="file"
              accept={AVATAR_TYPES.join(',')}
              aria-label={AVATAR_TEXTS.choose}
              className={css({ srOnly: true })}
              onChange={choose}
            />
            {file && (
              <>
                <Button
                  size="sm"
                  loading={uploading}
                  disabled={!online}
                  onClick={() => void upload()}
                >
                  {AVATAR_TEXTS.upload}
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setFile(null)}>
                  {AVATAR_TEXTS.discard}
                </Button>
              </>
            )}
          </div>
          <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>{AVATAR_TEXTS.hint}</p>
        </div>
      </div>
      {problem && (
        <Alert tone="destructive" role="alert" className={css({ mt: '3' })}>
          {problem}
        </Alert>
      )}
      {!online && (
        <Alert tone="amber" role="status" className={css({ mt: '3' })}>
          {AVATAR_TEXTS.offline}
        </Alert>
      )}
    </section>
  );
}
