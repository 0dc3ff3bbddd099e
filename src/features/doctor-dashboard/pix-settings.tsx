import { useId, useState, type FormEvent } from 'react';
import { css } from 'styled-system/css';
import { input } from 'styled-system/recipes';
import type { MedicoDoc, SyncEngine } from '../../../sync/index.ts';
import {
  PIX_KEY_TYPE_LABELS,
  PIX_KEY_TYPES,
  PixSettingsForm,
  pixKeyTypeOf,
  type PixKeyType,
} from '@/domain/payments/pix-key.ts';
import { validate } from '@/domain/schemas/validate.ts';
import { showToast } from '@/lib/toast.ts';
import { Button } from '@/ui/button.tsx';
import { TextField } from '@/ui/field.tsx';

export const PIX_SETTINGS_TEXTS = {
  title: 'Recebimento por PIX',
  description:
    'Com uma chave cadastrada, a guia de cada paciente traz o PIX copia e cola e o QR Code no valor da consulta. Você continua confirmando o pagamento em Consultas.',
  visibility:
    'A chave fica visível para quem vê o seu perfil. Prefira uma chave aleatória ou um e-mail.',
  type: 'Tipo de chave',
  key: 'Chave PIX',
  keyHint: 'Deixe em branco para não receber por PIX.',
  city: 'Cidade (aparece no PIX)',
  save: 'Salvar PIX',
  saved: 'Chave PIX atualizada!',
  removed: 'Chave PIX removida.',
  unchanged: 'Nenhuma alteração detectada.',
  error: 'Não foi possível salvar a chave PIX. Tente novamente.',
} as const;

const T = PIX_SETTINGS_TEXTS;

type Form = { tipo: PixKeyType; chave: string; cidade: string };

function initialForm(doctor: MedicoDoc): Form {
  const key = doctor.pix_chave ?? '';
  return {
    tipo: (key && pixKeyTypeOf(key)) || 'aleatoria',
    chave: key,
    cidade: doctor.pix_cidade ?? '',
  };
}

/** The perfil's PIX key and city; saved through the doctor's own row, like the profile. */
export function PixSettings({ engine, doctor }: { engine: SyncEngine; doctor: MedicoDoc }) {
  const [form, setForm] = useState<Form>(() => initialForm(doctor));
  const [errors, setErrors] = useState<Partial<Record<keyof Form, string>>>({});
  const [saving, setSaving] = useState(false);
  const typeId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = validate(PixSettingsForm, form);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    const next = result.value;
    if (next.pix_chave === doctor.pix_chave && next.pix_cidade === doctor.pix_cidade) {
      showToast({ title: T.unchanged });
      return;
    }
    setSaving(true);
    const saved = await engine.updateDoctorProfile(next);
    setSaving(false);
    if (!saved.ok) {
      showToast({ tone: 'error', title: T.error });
      return;
    }
    setForm({ ...form, chave: next.pix_chave ?? '', cidade: next.pix_cidade ?? '' });
    showToast({ tone: 'success', title: next.pix_chave ? T.saved : T.removed });
  }

  return (
    <form
      noValidate
      aria-labelledby={`${typeId}-title`}
      onSubmit={(e) => void submit(e)}
      className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
    >
      <div>
        <h2 id={`${typeId}-title`} className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
          {T.title}
        </h2>
        <p className={css({ mt: '1', fontSize: 'sm', color: 'fg.muted' })}>{T.description}</p>
        <p className={css({ mt: '1', fontSize: 'sm', color: 'fg.muted' })}>{T.visibility}</p>
      </div>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
        <label htmlFor={typeId} className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
          {T.type}
        </label>
        <select
          id={typeId}
          className={input()}
          value={form.tipo}
          onChange={(e) => setForm({ ...form, tipo: e.target.value as PixKeyType })}
        >
          {PIX_KEY_TYPES.map((type) => (
            <option key={type} value={type}>
              {PIX_KEY_TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      </div>
      <TextField
        label={T.key}
        helperText={T.keyHint}
        autoComplete="off"
        value={form.chave}
        error={errors.chave}
        onChange={(e) => setForm({ ...form, chave: e.target.value })}
      />
      <TextField
        label={T.city}
        autoComplete="address-level2"
        value={form.cidade}
        error={errors.cidade}
        onChange={(e) => setForm({ ...form, cidade: e.target.value })}
      />
      <div>
        <Button type="submit" variant="outline" loading={saving}>
          {T.save}
        </Button>
      </div>
    </form>
  );
}
