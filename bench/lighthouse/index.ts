/**
 * Lighthouse (mobile preset: simulated slow 4G and 4× CPU slowdown, the lantern model, so the
 * figures depend little on how busy this shared machine is) on the real build served by
 * `npm start`, in Debian's Chromium. For `/` and `/agendamentos` a first visit (Lighthouse
 * clears the origin's storage, cache and service worker before each run); for the patient's
 * and the doctor's dashboards a returning, signed-in visit (the session, the replica and the
 * service worker are kept: that is how a signed-in person opens them). Each figure is the
 * median of BENCH_LIGHTHOUSE_RUNS (3) runs. Goals: performance ≥ 90 and LCP ≤ 2.5 s on the
 * two public pages, accessibility 100 on every page. Every page is also compared with a
 * baseline audited in the same run, `/termos` (a static legal text, no data), as its LCP
 * ratio and its extra TBT, which hold where the shared machine moves the absolute figures.
 * Figures are reported, never asserted.
 */
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../../e2e/chromium.ts';
import { startProduct, waitUntilUp } from '../product.ts';
import { DOCTOR_PASSWORD, seedDoctor } from '../web/doctor.ts';

const APP_PORT = Number(process.env.BENCH_APP_PORT ?? 4173);
const API_PORT = Number(process.env.BENCH_API_PORT ?? 54399);
const APP = `http://127.0.0.1:${APP_PORT}`;
const API = `http://127.0.0.1:${API_PORT}`;
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const DATA_DIR = '.data/bench-lighthouse';
const PATIENT = { email: 'paciente1@saudeja.example', password: 'paciente123' };
/** Enough appointments for a dashboard that looks like a working week. */
const DOCTOR_APPOINTMENTS = 200;

type Scores = {
  performance: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  a11y: number;
  /** Ids of the accessibility audits that failed, so a score under 100 says why. */
  a11yFailures: string[];
  /** The elements that moved, with their share of the CLS, so a shift says where it is. */
  shifts: string[];
};

/** CLS above this is what Lighthouse calls 'needs improvement'. */
const CLS_GOOD = 0.1;

type ShiftItem = { score?: number; node?: { nodeLabel?: string; selector?: string } };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function openChromium(): Promise<LaunchedChrome> {
  return launch({
    chromePath: CHROMIUM_LAUNCH.executablePath,
    chromeFlags: ['--headless=new', ...CHROMIUM_LAUNCH.args],
    logLevel: 'silent',
  });
}

async function audit(chrome: LaunchedChrome, path: string, signedIn: boolean): Promise<Scores> {
  const result = await lighthouse(`${APP}${path}`, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    disableStorageReset: signedIn,
  });
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse returned nothing for ${path}`);
  if (lhr.runtimeError) throw new Error(`${path}: ${lhr.runtimeError.message}`);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    performance: (lhr.categories['performance']?.score ?? NaN) * 100,
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    a11y: (lhr.categories['accessibility']?.score ?? NaN) * 100,
    a11yFailures: (lhr.categories['accessibility']?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score === 0)
      .map((ref) => ref.id),
    shifts: (
      (lhr.audits['layout-shifts']?.details as { items?: ShiftItem[] } | undefined)?.items ?? []
    ).map(
      (item) =>
        `${(item.score ?? 0).toFixed(3)} ${item.node?.selector ?? '?'} "${(item.node?.nodeLabel ?? '').slice(0, 60)}"`,
    ),
  };
}

/** The page every other one is compared with. */
const BASELINE_PAGE = '/termos';

function print(path: string, runs: Scores[], goals: boolean, baseline?: Scores[]) {
  const m = (pick: (s: Scores) => number) => median(runs.map(pick));
  const b = (pick: (s: Scores) => number) => median((baseline ?? []).map(pick));
  const goal = goals
    ? '  goals: performance ≥ 90, LCP ≤ 2.5 s, accessibility 100'
    : '  goal: accessibility 100';
  const compared = baseline
    ? ` = LCP ${(m((s) => s.lcpMs) / b((s) => s.lcpMs)).toFixed(2)}× ${BASELINE_PAGE}'s, TBT ${(m((s) => s.tbtMs) - b((s) => s.tbtMs)).toFixed(0)} ms over it`
    : '';
  console.log(
    `lighthouse ${path.padEnd(28)} performance ${m((s) => s.performance).toFixed(0)}, LCP ${(m((s) => s.lcpMs) / 1000).toFixed(2)} s, TBT ${m((s) => s.tbtMs).toFixed(0)} ms, CLS ${m((s) => s.cls).toFixed(3)}, accessibility ${m((s) => s.a11y).toFixed(0)}  (median of ${runs.length})${compared}${goal}`,
  );
  const failures = [...new Set(runs.flatMap((s) => s.a11yFailures))];
  if (failures.length) console.log(`  accessibility audits failed: ${failures.join(', ')}`);
  if (m((s) => s.cls) > CLS_GOOD) {
    const shifts = [...new Set(runs.flatMap((s) => s.shifts))];
    console.log(`  layout shifts: ${shifts.join('; ')}`);
  }
}

async function runs(chrome: LaunchedChrome, path: string, signedIn: boolean): Promise<Scores[]> {
  const all: Scores[] = [];
  for (let i = 0; i < RUNS; i++) all.push(await audit(chrome, path, signedIn));
  return all;
}

/** Signs a person in through the app's own form in the Chromium Lighthouse then drives. */
async function signIn(
  chrome: LaunchedChrome,
  form: 'paciente' | 'medico',
  email: string,
  password: string,
) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const page: Page = await browser.contexts()[0]!.newPage();
  await page.goto(`${APP}/${form === 'paciente' ? 'acesso-paciente' : 'acesso-medico'}`);
  const login = page.getByRole('form', { name: 'Entrar' });
  await login.getByLabel('E-mail').fill(email);
  await login.getByLabel('Senha', { exact: true }).fill(password);
  await login.getByRole('button', { name: 'Entrar' }).click();
  const dashboard = form === 'paciente' ? '/paciente/dashboard' : '/medico/dashboard';
  await page.waitForURL(`**${dashboard}**`);
  // The replica's first sync and the service worker, as a returning person has them.
  await page.waitForLoadState('networkidle');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.close();
  await browser.close();
  return dashboard;
}

/** A fresh Chromium (its own profile) per visitor or person, so nothing leaks between them. */
async function withChromium<T>(fn: (chrome: LaunchedChrome) => Promise<T>): Promise<T> {
  const chrome = await openChromium();
  try {
    return await fn(chrome);
  } finally {
    chrome.kill();
  }
}

const product = startProduct({ app: APP_PORT, api: API_PORT }, DATA_DIR);
try {
  await waitUntilUp(`${API}/health`, 300_000);
  await waitUntilUp(APP, 300_000);
  const { email: doctorEmail } = await seedDoctor(API, DOCTOR_APPOINTMENTS);
  const baseline = await withChromium((chrome) => runs(chrome, BASELINE_PAGE, false));
  print(`${BASELINE_PAGE} (baseline)`, baseline, false);
  await withChromium(async (chrome) => {
    for (const path of ['/', '/agendamentos']) {
      print(path, await runs(chrome, path, false), true, baseline);
    }
  });
  await withChromium(async (chrome) => {
    const path = await signIn(chrome, 'paciente', PATIENT.email, PATIENT.password);
    print(`${path} (patient)`, await runs(chrome, path, true), false, baseline);
  });
  await withChromium(async (chrome) => {
    const path = await signIn(chrome, 'medico', doctorEmail, DOCTOR_PASSWORD);
    print(`${path} (doctor)`, await runs(chrome, path, true), false, baseline);
  });
} finally {
  product.stop();
}
