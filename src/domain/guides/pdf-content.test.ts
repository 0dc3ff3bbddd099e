import { describe, expect, it } from 'vitest';
import { paymentInstructions } from '@/domain/payments/payment-instructions.ts';
import { guidePdfContent, guidePdfFileName, type GuideSheet } from './pdf-content.ts';

const sheet: GuideSheet = {
  protocol: 'SJ-2026-ABCD-EFGH',
  issuedOn: '25/11/2026',
  patient: {
    name: 'Ana',
    cpf: '529.982.247-25',
    birthDate: '10/05/1990',
    contact: '(11) 98765-4321',
  },
  doctor: { name: 'Dra. Ana Ribeiro', specialty: 'Clínica Geral', crm: 'CRM 123456/SP' },
  consultation: { service: 'Teleconsulta', date: '30/11/2026', time: '08:00' },
  payment: { value: 'R$ 150,00', status: 'Aguardando Pagamento' },
  qrValue: 'SAUDEJA:GUIA:SJ-2026-ABCD-EFGH:b1',
};

const doctor = {
  name: 'Dra. Ana Ribeiro',
  pix_chave: 'medica@clinica.example',
  pix_cidade: 'São Paulo',
};
const due = {
  amountCents: 15000,
  protocol: sheet.protocol,
  pagamentoStatus: 'pendente',
  closed: false,
};

describe('guidePdfContent', () => {
  it('names the file after the protocol', () => {
    expect(guidePdfFileName('SJ-2026-ABCD-EFGH')).toBe('guia-SJ-2026-ABCD-EFGH.pdf');
    expect(guidePdfFileName('../x y')).toBe('guia-xy.pdf');
  });

  it('prints the guide data, its QR, the PIX code and the policy', () => {
    const content = guidePdfContent(sheet, paymentInstructions({ doctor, ...due }));
    expect(content.meta).toEqual(['Protocolo: SJ-2026-ABCD-EFGH', 'Data de emissão: 25/11/2026']);
    expect(content.qr.value).toBe(sheet.qrValue);
    expect(content.sections.map((s) => s.title)).toEqual([
      'Dados do Paciente',
      'Dados do Médico',
      'Dados da Consulta',
    ]);
    expect(content.payment.pix?.code).toMatch(/^000201.*6304[0-9A-F]{4}$/);
    expect(content.payment.notes.join(' ')).toContain('O médico confirma o pagamento');
    expect(content.policy.text.length).toBeGreaterThan(0);
  });

  it('without a key says how the doctor gets in touch, and no PIX', () => {
    const content = guidePdfContent(
      sheet,
      paymentInstructions({ doctor: { ...doctor, pix_chave: null }, ...due }),
    );
    expect(content.payment.pix).toBeNull();
    expect(content.payment.notes[0]).toContain('O médico entrará em contato');
  });

  it.each([
    [{ pagamentoStatus: 'pago' }, 'Pagamento confirmado pelo médico.'],
    [{ closed: true }, 'Consulta cancelada: não há pagamento a fazer.'],
  ])('no PIX once settled: %o', (change, note) => {
    const payment = paymentInstructions({ doctor, ...due, ...change });
    expect(payment).toEqual({ kind: 'settled', note });
  });
});
