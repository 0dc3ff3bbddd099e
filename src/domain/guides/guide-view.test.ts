import { describe, expect, it } from 'vitest';
import { toGuideView, type GuideRecord } from './guide-view.ts';

const guide: GuideRecord = {
  protocolo: 'SJ-2026-ABCD-EFGH',
  qr_text: 'SAUDEJA:GUIA:SJ-2026-ABCD-EFGH:b0000000-0000-4000-8000-000000000001',
  data_emissao: '2026-11-25T12:00:00Z',
  paciente_snapshot: { nome: 'Ana', cpf: '52998224725', data_nasc: '1990-05-10', whatsapp: null },
  medico_snapshot: { nome: 'Dra. Ana Ribeiro', especialidade: 'Clínica Geral', crm: '123456/SP' },
  servico_snapshot: {
    nome: 'Teleconsulta',
    data: '2026-11-30',
    hora: '08:00',
    preco_centavos: 15000,
  },
};

describe('toGuideView: the payment line follows the appointment', () => {
  it.each([
    [null, 'Aguardando Pagamento'],
    [{ pagamento_status: 'pendente' }, 'Aguardando Pagamento'],
    [{ pagamento_status: 'pago' }, 'Pago'],
    [{ pagamento_status: 'cancelado' }, 'Cancelado'],
  ])('%o → %s', (appointment, label) => {
    expect(toGuideView(guide, appointment).payment.status).toBe(label);
  });
});
