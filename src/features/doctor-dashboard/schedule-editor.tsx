import { useId, useMemo, useRef, useState } from 'react';
import { css } from 'styled-system/css';
import type { AgendaMedicoDoc, SyncEngine } from '../../../sync/index.ts';
import {
  dayBlocks,
  EDITOR_WEEKDAYS,
  INTERVAL_OPTIONS,
  newEditorBlock,
  toEditorBlock,
  validateSchedule,
  type BlockFieldErrors,
  type EditorBlock,
  type IntervalOption,
} from '@/domain/schedule/editor.ts';
import { useObservable } from '@/session/sync-provider.tsx';
import { showToast } from '@/lib/toast.ts';
import { Button } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';
import { Skeleton } from '@/ui/skeleton.tsx';

export const EDITOR_TEXTS = {
  title: 'Seus horários de atendimento',
  add: 'Adicionar horário',
  remove: 'Remover',
  start: 'Início',
  end: 'Fim',
  interval: 'Intervalo',
  save: 'Salvar Agenda',
  savedTitle: 'Sucesso!',
  savedDescription: 'Sua agenda foi atualizada.',
  saveErrorTitle: 'Erro ao salvar agenda',
  saveErrorDescription: 'Não foi possível salvar um dos blocos. Tente novamente.',
  noBlocks: 'Sem horários neste dia.',
} as const;

const input = css({
  h: '9',
  px: '2',
  borderWidth: '1px',
  borderColor: 'border.strong',
  borderRadius: 'md',
  bg: 'bg.surface',
  fontSize: 'sm',
  _invalid: { borderColor: 'destructive' },
});

type TimeFieldProps = {
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
};

function TimeField({ label, value, error, onChange }: TimeFieldProps) {
  const errorId = useId();
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', fontSize: 'xs' })}>
      <label className={css({ display: 'flex', flexDirection: 'column' })}>
        {label}
        <input
          type="time"
          className={input}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
      {error && (
        <span id={errorId} className={css({ color: 'destructive.fg' })}>
          {error}
        </span>
      )}
    </div>
  );
}

function changed(block: EditorBlock, row: AgendaMedicoDoc): boolean {
  const stored = toEditorBlock(row);
  return (
    stored.hora_inicio !== block.hora_inicio ||
    stored.hora_fim !== block.hora_fim ||
    stored.intervalo_em_minutos !== block.intervalo_em_minutos
  );
}

/**
 * The owner's weekly schedule, edited in place on the booking page (`?edit=1`). Writes go to
 * the replica and sync by themselves; removals are written first so a moved block never
 * overlaps its old range on the server.
 */
function Editor({ engine, rows }: { engine: SyncEngine; rows: AgendaMedicoDoc[] }) {
  const [blocks, setBlocks] = useState<EditorBlock[]>(() => rows.map(toEditorBlock));
  const [errors, setErrors] = useState<Record<string, BlockFieldErrors>>({});
  const [saving, setSaving] = useState(false);
  const newKeys = useRef(0);

  const update = (key: string, patch: Partial<EditorBlock>) =>
    setBlocks((list) => list.map((b) => (b.key === key ? { ...b, ...patch } : b)));

  async function save() {
    const validation = validateSchedule(blocks);
    if (!validation.ok) {
      setErrors(validation.errors);
      showToast({ tone: 'error', ...validation.toast });
      return;
    }
    setErrors({});
    setSaving(true);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const kept = new Set(blocks.map((b) => b.key));
    const results = [];
    for (const row of rows) {
      if (!kept.has(row.id)) results.push(await engine.removeAvailabilityBlock(row.id));
    }
    for (const block of blocks) {
      const row = byId.get(block.key);
      if (row && !changed(block, row)) continue;
      results.push(
        await engine.saveAvailabilityBlock({
          ...(row ? { id: row.id } : {}),
          dia_semana: block.dia_semana,
          hora_inicio: block.hora_inicio,
          hora_fim: block.hora_fim,
          intervalo_em_minutos: block.intervalo_em_minutos as IntervalOption,
        }),
      );
    }
    setSaving(false);
    if (results.every((r) => r.ok)) {
      showToast({
        tone: 'success',
        title: EDITOR_TEXTS.savedTitle,
        description: EDITOR_TEXTS.savedDescription,
      });
    } else {
      showToast({
        tone: 'error',
        title: EDITOR_TEXTS.saveErrorTitle,
        description: EDITOR_TEXTS.saveErrorDescription,
      });
    }
  }

  return (
    <Card>
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold', mb: '4' })}>{EDITOR_TEXTS.title}</h2>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
        {EDITOR_WEEKDAYS.map(({ diaSemana, name }) => (
          <section
            key={diaSemana}
            aria-label={name}
            className={css({ borderBottomWidth: '1px', borderColor: 'border', pb: '3' })}
          >
            <div
              className={css({
                display: 'flex',
                justifyContent: 'space-between',
                alignItems: 'center',
                mb: '2',
              })}
            >
              <h3 className={css({ fontWeight: 'semibold' })}>{name}</h3>
              <Button
                size="sm"
                variant="ghost"
                onClick={() =>
                  setBlocks((list) => [
                    ...list,
                    newEditorBlock(diaSemana, `novo-${++newKeys.current}`),
                  ])
                }
              >
                {EDITOR_TEXTS.add}
              </Button>
            </div>
            {dayBlocks(blocks, diaSemana).length === 0 && (
              <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{EDITOR_TEXTS.noBlocks}</p>
            )}
            {dayBlocks(blocks, diaSemana).map((block) => {
              const error = errors[block.key];
              return (
                <div
                  key={block.key}
                  className={css({
                    display: 'flex',
                    flexWrap: 'wrap',
                    alignItems: 'flex-end',
                    gap: '3',
                    py: '1.5',
                  })}
                >
                  <TimeField
                    label={EDITOR_TEXTS.start}
                    value={block.hora_inicio}
                    error={error?.hora_inicio}
                    onChange={(value) => update(block.key, { hora_inicio: value })}
                  />
                  <TimeField
                    label={EDITOR_TEXTS.end}
                    value={block.hora_fim}
                    error={error?.hora_fim}
                    onChange={(value) => update(block.key, { hora_fim: value })}
                  />
                  <label
                    className={css({ display: 'flex', flexDirection: 'column', fontSize: 'xs' })}
                  >
                    {EDITOR_TEXTS.interval}
                    <select
                      className={input}
                      value={block.intervalo_em_minutos}
                      onChange={(e) =>
                        update(block.key, { intervalo_em_minutos: Number(e.target.value) })
                      }
                    >
                      {INTERVAL_OPTIONS.map((minutes) => (
                        <option key={minutes} value={minutes}>
                          {minutes} min
                        </option>
                      ))}
                    </select>
                  </label>
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => setBlocks((list) => list.filter((b) => b.key !== block.key))}
                  >
                    {EDITOR_TEXTS.remove}
                  </Button>
                </div>
              );
            })}
          </section>
        ))}
      </div>
      <div className={css({ display: 'flex', justifyContent: 'flex-end', mt: '5' })}>
        <Button loading={saving} onClick={() => void save()}>
          {EDITOR_TEXTS.save}
        </Button>
      </div>
    </Card>
  );
}

/** Loads the owner's blocks from the replica, then edits a copy of them. */
export function ScheduleEditor({ engine, medicoId }: { engine: SyncEngine; medicoId: string }) {
  const rows$ = useMemo(() => engine.availability$(medicoId), [engine, medicoId]);
  const rows = useObservable(rows$, undefined);
  if (!rows) return <Skeleton className={css({ h: '96' })} />;
  return <Editor engine={engine} rows={rows} />;
}
