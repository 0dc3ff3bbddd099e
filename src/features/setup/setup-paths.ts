import type { AnswerKind } from './setup-answer.ts';

/** The fixed doctors' setup functions exist per doctor: create-and-link-ana, sync-doctor-paulo… */
export const SETUP_DOCTOR_NAMES = ['ana', 'paulo'] as const;

export type SetupCall = { functionName: string; kind: AnswerKind };

/** Page → function (supabase/functions/README.md "Fixed-doctor setup"). */
function pagesOf(name: string): [string, SetupCall][] {
  return [
    [`/setup-admin-${name}`, { functionName: `create-and-link-${name}`, kind: 'setup' }],
    [`/admin/setup-${name}`, { functionName: `create-and-link-${name}`, kind: 'setup' }],
    [`/admin/create-${name}`, { functionName: `create_doctor_${name}`, kind: 'setup' }],
    [`/admin/link-${name}`, { functionName: `link-doctor-${name}`, kind: 'link' }],
    [`/admin/link-second-${name}`, { functionName: `link-second-doctor-${name}`, kind: 'link' }],
    [`/admin/sync-${name}`, { functionName: `sync-doctor-${name}`, kind: 'setup' }],
  ];
}

/**
 * Both fixed doctors at once, `create-and-link-{name}-{name}` (docs/product-rules.md §7), on
 * the single doctor's two setup paths with both names.
 */
function bothDoctorsPages(): [string, SetupCall][] {
  const names = SETUP_DOCTOR_NAMES.join('-');
  const call: SetupCall = { functionName: `create-and-link-${names}`, kind: 'setup' };
  return [
    [`/setup-admin-${names}`, call],
    [`/admin/setup-${names}`, call],
  ];
}

const DOCTOR_SETUP_PAGES = new Map([...SETUP_DOCTOR_NAMES.flatMap(pagesOf), ...bothDoctorsPages()]);

/** Every doctor-setup page path, for the route table. */
export const DOCTOR_SETUP_PATHS: readonly string[] = [...DOCTOR_SETUP_PAGES.keys()];

/** The function a setup page runs; null for a path that names none. */
export function setupCallFor(pathname: string): SetupCall | null {
  return DOCTOR_SETUP_PAGES.get(pathname.replace(/\/+$/, '')) ?? null;
}
