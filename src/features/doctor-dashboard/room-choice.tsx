import { useId, useState } from 'react';
import { css } from 'styled-system/css';
import {
  DEFAULT_ROOM_CHOICE,
  ROOM_CHOICES,
  type RoomChoice,
} from '@/domain/rules/consultation-room.ts';
import type { MedicoDoc, SyncEngine } from '../../../sync/index.ts';
import { showToast } from '@/lib/toast.ts';

export const ROOM_CHOICE_TEXTS = {
  title: 'Sala da consulta',
  description: 'Onde você e o paciente se encontram na hora da consulta.',
  options: {
    integrada: {
      label: 'Sala do Saúde Já (recomendado)',
      hint: 'Vídeo dentro do site, com sala de espera, teste de câmera e microfone e só áudio quando a conexão cai. Nada para instalar.',
    },
    link_externo: {
      label: 'Meu próprio link de vídeo',
      hint: 'Você salva um link (por exemplo, Google Meet) em cada consulta, em Consultas.',
    },
  } satisfies Record<RoomChoice, { label: string; hint: string }>,
  saved: 'Sala da consulta atualizada!',
  error: 'Não foi possível salvar a escolha da sala. Tente novamente.',
} as const;

const T = ROOM_CHOICE_TEXTS;

function choiceOf(doctor: MedicoDoc): RoomChoice {
  return (ROOM_CHOICES as readonly string[]).includes(doctor.sala_consulta ?? '')
    ? (doctor.sala_consulta as RoomChoice)
    : DEFAULT_ROOM_CHOICE;
}

/** perfil: the built-in room (default) or the doctor's own video link; saved on choosing. */
export function RoomChoiceSettings({ engine, doctor }: { engine: SyncEngine; doctor: MedicoDoc }) {
  const [choice, setChoice] = useState<RoomChoice>(() => choiceOf(doctor));
  const titleId = useId();

  async function choose(next: RoomChoice) {
    if (next === choice) return;
    const before = choice;
    setChoice(next);
    const saved = await engine.updateDoctorProfile({ sala_consulta: next });
    if (!saved.ok) {
      setChoice(before);
      showToast({ tone: 'error', title: T.error });
      return;
    }
    showToast({ tone: 'success', title: T.saved });
  }

  return (
    <fieldset
      aria-labelledby={titleId}
      className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
    >
      <div>
        <h2 id={titleId} className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
          {T.title}
        </h2>
        <p className={css({ mt: '1', fontSize: 'sm', color: 'fg.muted' })}>{T.description}</p>
      </div>
      {ROOM_CHOICES.map((value) => (
        <label
          key={value}
          className={css({
            display: 'flex',
            gap: '3',
            alignItems: 'flex-start',
            p: '3',
            borderWidth: '1px',
            borderColor: choice === value ? 'primary' : 'border',
            borderRadius: 'md',
            cursor: 'pointer',
          })}
        >
          <input
            type="radio"
            name={titleId}
            value={value}
            checked={choice === value}
            onChange={() => void choose(value)}
            className={css({ mt: '1' })}
          />
          <span>
            <span className={css({ display: 'block', fontWeight: 'medium' })}>
              {T.options[value].label}
            </span>
            <span className={css({ display: 'block', fontSize: 'sm', color: 'fg.muted' })}>
              {T.options[value].hint}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
