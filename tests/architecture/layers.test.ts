import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layer rules of eslint.config.js, proved to fire: each case lints one import as if it were
 * written in a real file of the tree (the file need not exist; only import resolution runs).
 */
const eslint = new ESLint({
  overrideConfigFile: 'eslint.config.js',
  overrideConfig: {
    // Only the import rules matter here; type-aware parsing would need each path to exist.
    languageOptions: { parserOptions: { projectService: false, project: null } },
  },
  ruleFilter: ({ ruleId }) => ruleId === 'import-x/no-restricted-paths',
});

async function layerErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport {};\n`, { filePath });
  return (result?.messages ?? []).map((message) => message.message);
}

describe('import layers (app → features → session, lib, ui, domain, sync)', () => {
  it('refuses a feature importing the app shell', async () => {
    const errors = await layerErrors(
      'src/features/booking/layer-probe.ts',
      "import { appRoutes } from '@/app/route-table.tsx';",
    );
    expect(errors.join('\n')).toContain('Features never import the app shell');
  });

  it("refuses a feature reaching into another feature's modules", async () => {
    const errors = await layerErrors(
      'src/features/patient-dashboard/layer-probe.ts',
      "import { BookingPage } from '@/features/booking/booking-page.tsx';",
    );
    expect(errors.join('\n')).toContain('A feature never imports another feature');
  });

  it("refuses a feature importing another feature's index.ts", async () => {
    const errors = await layerErrors(
      'src/features/booking/layer-probe.ts',
      "import { LoginModal } from '@/features/auth/index.ts';",
    );
    expect(errors.join('\n')).toContain('A feature never imports another feature');
  });

  it('lets a route compose features, and a feature use what moved below', async () => {
    const route = await layerErrors(
      'src/app/routes/layer-probe.tsx',
      [
        "import { LoginModal } from '@/features/auth/index.ts';",
        "import { BookingPage } from '@/features/booking/booking-page.tsx';",
      ].join('\n'),
    );
    const card = await layerErrors(
      'src/features/patient-dashboard/layer-probe.ts',
      "import { GuideDocumentActions } from '@/session/guide-documents.tsx';",
    );
    expect([...route, ...card]).toEqual([]);
  });

  it('allows a feature its own modules and the layers below it', async () => {
    const errors = await layerErrors(
      'src/features/booking/layer-probe.ts',
      [
        "import { BookingFlowProvider } from './booking-flow.tsx';",
        "import { useAuth } from '@/session/auth-context.ts';",
        "import { Button } from '@/ui/button.tsx';",
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('refuses the session layer importing a feature', async () => {
    const errors = await layerErrors(
      'src/session/layer-probe.ts',
      "import { LoginModal } from '@/features/auth/index.ts';",
    );
    expect(errors.join('\n')).toContain('below the features');
  });

  it('refuses the UI kit importing the session', async () => {
    const errors = await layerErrors(
      'src/ui/layer-probe.ts',
      "import { useAuth } from '@/session/auth-context.ts';",
    );
    expect(errors.join('\n')).toContain('bottom layers');
  });
});

describe('the app sees the sync engine through its entries', () => {
  it("refuses app code reaching into the engine's modules", async () => {
    const errors = await layerErrors(
      'src/features/booking/layer-probe.ts',
      "import { TABLES } from '../../../sync/tables.ts';",
    );
    expect(errors.join('\n')).toContain(
      'through sync/index.ts, sync/light.ts or sync/presence.ts only',
    );
  });

  it('allows its public entry and its two light ones', async () => {
    const errors = await layerErrors(
      'src/features/booking/layer-probe.ts',
      [
        "import type { SyncEngine } from '../../../sync/index.ts';",
        "import { firstReadViews } from '../../../sync/light.ts';",
        "import { hasReplica } from '../../../sync/presence.ts';",
        'export const probe = [firstReadViews, hasReplica];',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });
});

describe('the sync test kit (sync/testing) stays out of the app', () => {
  it('refuses app code importing the kit', async () => {
    const errors = await layerErrors(
      'src/session/layer-probe.ts',
      "import { device } from '../../sync/testing/index.ts';",
    );
    expect(errors.join('\n')).toContain('sync/testing is for tests');
  });

  it("allows the screens' tests to use it", async () => {
    const errors = await layerErrors(
      'src/features/booking/layer-probe.integration.test.tsx',
      "import { device } from '../../../sync/testing/index.ts';",
    );
    expect(errors).toEqual([]);
  });

  it('refuses the engine importing the kit or the local platform', async () => {
    const errors = await layerErrors(
      'sync/layer-probe.ts',
      [
        "import { settled } from './testing/index.ts';",
        "import { createPlatform } from '../supabase/local/server.ts';",
      ].join('\n'),
    );
    expect(errors).toHaveLength(2);
    expect(errors.join('\n')).toContain('only its test kit (sync/testing)');
  });

  it('lets the kit start the local platform', async () => {
    const errors = await layerErrors(
      'sync/testing/layer-probe.ts',
      "import { createPlatform } from '../../supabase/local/server.ts';",
    );
    expect(errors).toEqual([]);
  });
});

describe('the sync engine reaches into src/ only for the shared rules and the one error mapper', () => {
  it('allows src/domain/rules and src/domain/errors', async () => {
    const errors = await layerErrors(
      'sync/layer-probe.ts',
      [
        "import { SCHEDULE_ZONE } from '../src/domain/rules/booking.ts';",
        "import { mapServerError } from '../src/domain/errors/map-server-error.ts';",
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('refuses the rest of src/', async () => {
    const errors = await layerErrors(
      'sync/layer-probe.ts',
      [
        "import { formatCents } from '../src/domain/money/money.ts';",
        "import { showToast } from '../src/lib/toast.ts';",
      ].join('\n'),
    );
    expect(errors).toHaveLength(2);
    expect(errors.join('\n')).toContain('sync/ must not depend on the app');
  });
});
