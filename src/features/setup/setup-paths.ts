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

const DOCTOR_SETUP_PAGES = new Map(SETUP_DOCTOR_NAMES.flatMap(pagesOf));

/** Every doctor-setup page path, for the route table. */
export const DOCTOR_SETUP_PATHS: readonly string[] = [...DOCTOR_SETUP_PAGES.keys()];

/** The function a setup page runs; null for a path that names none. */
export function setupCallFor(pathname: string): SetupCall | null {
  return DOCTOR_SETUP_PAGES.get(pathname.replace(/\/+$/, '')) ?? null;
}
