import { useId, useMemo, useRef, useState } from 'react';
import { map } from 'rxjs';
import { css } from 'styled-system/css';
import type { AgendaMedicoDoc, SyncEngine } from '../../../sync/index.ts';
import {
  dayBlocks,
  EDITOR_WEEKDAYS,
  INTERVAL_OPTIONS,
  validateSchedule,
  type BlockFieldErrors,
  type EditorBlock,
  type IntervalOption,
} from '@/domain/schedule/editor.ts';
import {
  NO_EDITS,
  addBlock,
  editBlock,
  hasEdits,
  removeBlock,
  scheduleChanges,
  visibleBlocks,
  type ScheduleChanges,
  type ScheduleEdits,
} from '@/domain/schedule/edits.ts';
import { useObservable } from '@/session/sync-provider.tsx';
import { useSyncFetchError } from '@/session/sync-error-toast.ts';
import { useDirectWriteOutcomes } from '@/session/direct-write-outcomes.ts';
import { LOAD_ERROR_TEXTS, LoadError } from '@/ui/load-error.tsx';
import { showToast } from '@/lib/toast.ts';
import { Badge } from '@/ui/badge.tsx';
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
  block: 'Horário',
  newBlock: 'Novo horário',
  editedBlock: 'Horário alterado',
  loading: 'Carregando sua agenda…',
  notLoadedOffline:
    'Sua agenda ainda não foi carregada neste dispositivo. Conecte-se à internet para editá-la.',
  offline: 'Sem conexão: as alterações serão enviadas quando a conexão voltar.',
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

/** Writes exactly the person's changes: removals first (a moved block must not overlap its old range). */
async function writeChanges(engine: SyncEngine, changes: ScheduleChanges): Promise<boolean> {
  const results = [];
  for (const id of changes.removals) results.push(await engine.removeAvailabilityBlock(id));
  for (const { id, block } of changes.saves) {
    results.push(
      await engine.saveAvailabilityBlock({
        ...(id ? { id } : {}),
        dia_semana: block.dia_semana,
        hora_inicio: block.hora_inicio,
        hora_fim: block.hora_fim,
        intervalo_em_minutos: block.intervalo_em_minutos as IntervalOption,
      }),
    );
  }
  return results.every((r) => r.ok);
}

/** Unsaved blocks say so, so the doctor sees exactly what 'Salvar Agenda' will write. */
function blockMark(edits: ScheduleEdits, key: string): string | null {
  if (edits.added.some((b) => b.key === key)) return EDITOR_TEXTS.newBlock;
  if (key in edits.edited) return EDITOR_TEXTS.editedBlock;
  return null;
}

type EditorProps = { engine: SyncEngine; rows: AgendaMedicoDoc[]; online: boolean };

/**
 * The owner's weekly schedule. The stored blocks stay live underneath and the person's changes
 * are kept apart from them (`ScheduleEdits`): a save writes only those changes, so a block this
 * screen never showed is never deleted. Writes go to the replica and sync by themselves.
 */
function Editor({ engine, rows, online }: EditorProps) {
  const [edits, setEdits] = useState<ScheduleEdits>(NO_EDITS);
  const [errors, setErrors] = useState<Record<string, BlockFieldErrors>>({});
  const [saving, setSaving] = useState(false);
  const newKeys = useRef(0);
  useDirectWriteOutcomes(engine, 'agenda_medico', { rejectedTitle: EDITOR_TEXTS.saveErrorTitle });
  const blocks = visibleBlocks(rows, edits);

  const update = (key: string, patch: Partial<EditorBlock>) =>
    setEdits((current) => editBlock(rows, current, key, patch));

  async function save() {
    const validation = validateSchedule(blocks);
    if (!validation.ok) {
      setErrors(validation.errors);
      showToast({ tone: 'error', ...validation.toast });
      return;
    }
    setErrors({});
    setSaving(true);
    const ok = await writeChanges(engine, scheduleChanges(rows, edits));
    setSaving(false);
    setEdits(NO_EDITS);
    showToast(
      ok
        ? {
            tone: 'success',
            title: EDITOR_TEXTS.savedTitle,
            description: EDITOR_TEXTS.savedDescription,
          }
        : {
            tone: 'error',
            title: EDITOR_TEXTS.saveErrorTitle,
            description: EDITOR_TEXTS.saveErrorDescription,
          },
    );
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
                  setEdits((current) => addBlock(current, diaSemana, `novo-${++newKeys.current}`))
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
              const mark = blockMark(edits, block.key);
              return (
                <div
                  key={block.key}
                  role="group"
                  aria-label={mark ?? EDITOR_TEXTS.block}
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
                  {mark && (
                    <Badge tone="amber" className={css({ alignSelf: 'center' })}>
                      {mark}
                    </Badge>
                  )}
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => setEdits((current) => removeBlock(current, block.key))}
                  >
                    {EDITOR_TEXTS.remove}
                  </Button>
                </div>
              );
            })}
          </section>
        ))}
      </div>
      <div
        className={css({
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: 'flex-end',
          gap: '3',
          mt: '5',
        })}
      >
        {!online && (
          <p role="status" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            {EDITOR_TEXTS.offline}
          </p>
        )}
        <Button loading={saving} disabled={!hasEdits(edits)} onClick={() => void save()}>
          {EDITOR_TEXTS.save}
        </Button>
      </div>
    </Card>
  );
}

function EditorLoading({ offline }: { offline: boolean }) {
  return (
    <Card aria-busy="true" aria-label={EDITOR_TEXTS.loading}>
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold', mb: '2' })}>{EDITOR_TEXTS.title}</h2>
      <p role="status" className={css({ fontSize: 'sm', color: 'fg.muted', mb: '4' })}>
        {offline ? EDITOR_TEXTS.notLoadedOffline : EDITOR_TEXTS.loading}
      </p>
      <Skeleton className={css({ h: '80' })} />
    </Card>
  );
}

/**
 * Waits until the owner's blocks are in the replica — pulled at least once on this device, in
 * this session or an earlier one — before editing: an empty replica still on its first sync
 * would show an empty week (sync/SPEC.md S2). Never pulled and the server failing (online):
 * 'Erro ao carregar sua agenda' with the server's message and 'Tentar novamente'.
 */
export function ScheduleEditor({ engine, medicoId }: { engine: SyncEngine; medicoId: string }) {
  const rows$ = useMemo(() => engine.availability$(medicoId), [engine, medicoId]);
  const pulled$ = useMemo(() => engine.pulledOnce$('agenda_medico'), [engine]);
  const online$ = useMemo(() => engine.status$.pipe(map((s) => s.online)), [engine]);
  const rows = useObservable(rows$, undefined);
  const pulled = useObservable(pulled$, false);
  const online = useObservable(online$, true);
  const fetchError = useSyncFetchError(engine, 'agenda_medico');
  if ((!rows || !pulled) && fetchError !== null) {
    return (
      <LoadError
        title={LOAD_ERROR_TEXTS.schedule}
        lines={[fetchError]}
        onRetry={() => engine.resync()}
      />
    );
  }
  if (!rows || !pulled) return <EditorLoading offline={!online} />;
  return <Editor engine={engine} rows={rows} online={online} />;
}
