import { describe, expect, it } from 'vitest';
import { discardWarningText, keptQueueText } from './session-notices.tsx';

describe('notices about a kept queue', () => {
  it('agree with the number of changes', () => {
    expect(keptQueueText({ userId: 'u', email: 'ana@example.com', pending: 1 })).toBe(
      'ana@example.com tem 1 alteração ainda não enviada neste aparelho. Entre com essa conta para enviá-la; ao entrar com outra conta, ela será descartada.',
    );
    expect(keptQueueText({ userId: 'u', email: 'ana@example.com', pending: 3 })).toBe(
      'ana@example.com tem 3 alterações ainda não enviadas neste aparelho. Entre com essa conta para enviá-las; ao entrar com outra conta, elas serão descartadas.',
    );
  });

  it('say how many changes of whom another sign-in discards', () => {
    expect(discardWarningText({ userId: 'u', email: 'ana@example.com', pending: 2 })).toBe(
      'Entrar com outra conta descartará 2 alterações ainda não enviadas de ana@example.com. Clique em Entrar novamente para continuar.',
    );
  });
});
