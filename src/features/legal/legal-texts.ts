import { SELF_CANCEL_NOTICE_HOURS } from '@/domain/rules/policy-defaults.ts';
import { TERMS_VERSION } from '@/domain/rules/consent.ts';
import { appConfig } from '@/lib/config.ts';

/**
 * The product's own legal texts: templates a clinic reviews with its lawyers before use (each
 * page says so). They describe what the product actually does — the data it keeps, the
 * reminders, the cancellation window, the export and the account deletion in Meus Dados.
 */
export type LegalSection = { heading: string; paragraphs: readonly string[] };
export type LegalDocument = { title: string; intro: string; sections: readonly LegalSection[] };
export type LegalDocumentKey = 'termos' | 'privacidade' | 'reembolso' | 'consentimento';

export const TEMPLATE_NOTICE_TITLE = 'Modelo para revisão da clínica';
export const TEMPLATE_NOTICE =
  'Este texto é um modelo fornecido com a plataforma. A clínica deve revisá-lo com sua assessoria jurídica e adaptá-lo antes de publicá-lo aos pacientes.';

const [year, month, day] = TERMS_VERSION.split('-');
export const TERMS_VERSION_LABEL = `Versão de ${day}/${month}/${year}`;

const company = `${appConfig.companyName} (CNPJ ${appConfig.cnpj})`;
const contact = `${appConfig.supportEmail} ou WhatsApp ${appConfig.supportWhatsapp}`;

const termos: LegalDocument = {
  title: 'Termos de Serviço',
  intro: `Estes termos regem o uso do ${appConfig.productName}, plataforma de agendamento de teleconsultas operada por ${company}.`,
  sections: [
    {
      heading: '1. O serviço',
      paragraphs: [
        `O ${appConfig.productName} permite agendar teleconsultas de 30 minutos com os médicos listados, emitir a guia de atendimento e acompanhar seus agendamentos, inclusive sem conexão com a internet.`,
        'A consulta é realizada pelo médico, que é o responsável pelo atendimento, pelo prontuário e pelas orientações dadas ao paciente.',
      ],
    },
    {
      heading: '2. Cadastro',
      paragraphs: [
        'Para agendar é preciso ter 18 anos ou mais, informar nome completo, CPF, data de nascimento e e-mail verdadeiros e aceitar o Termo de Consentimento para Telemedicina.',
        'Você é responsável por manter sua senha em sigilo e por todas as ações feitas com sua conta.',
      ],
    },
    {
      heading: '3. Agendamento, pagamento e cancelamento',
      paragraphs: [
        'O horário escolhido fica reservado por alguns minutos até a guia ser gerada. O pagamento é combinado com o médico, que o confirma na plataforma.',
        `Você pode cancelar pelo painel até ${SELF_CANCEL_NOTICE_HOURS} horas antes do horário marcado. Reembolsos seguem a Política de Reembolso.`,
      ],
    },
    {
      heading: '4. Lembretes',
      paragraphs: [
        'Enviamos lembretes por e-mail 24 horas e 1 hora antes da consulta. Você pode desativá-los a qualquer momento em Meus Dados.',
      ],
    },
    {
      heading: '5. Limites',
      paragraphs: [
        'A teleconsulta não substitui o atendimento de urgência. Em caso de emergência, procure o pronto-socorro mais próximo ou ligue 192 (SAMU).',
      ],
    },
    {
      heading: '6. Contato',
      paragraphs: [`Dúvidas sobre estes termos: ${contact}.`],
    },
  ],
};

const privacidade: LegalDocument = {
  title: 'Política de Privacidade (LGPD)',
  intro: `Esta política explica como ${company}, controladora dos dados, trata os dados pessoais dos pacientes, conforme a Lei Geral de Proteção de Dados (Lei nº 13.709/2018).`,
  sections: [
    {
      heading: '1. Dados que tratamos',
      paragraphs: [
        'Dados de cadastro: nome completo, CPF, data de nascimento, e-mail e WhatsApp (opcional).',
        'Dados dos agendamentos: médico, data e horário, situação do pagamento, link da sala, guia de atendimento e os lembretes enviados.',
        'Registro do seu consentimento para telemedicina, com data, hora e versão do termo aceito.',
      ],
    },
    {
      heading: '2. Para que usamos',
      paragraphs: [
        'Para agendar e realizar as teleconsultas (execução de contrato), emitir a guia, enviar lembretes e cumprir obrigações legais e regulatórias da atividade médica.',
        'O médico do seu agendamento vê seus dados de cadastro para atendê-lo. Não vendemos nem compartilhamos seus dados para publicidade.',
      ],
    },
    {
      heading: '3. Onde ficam',
      paragraphs: [
        'Em servidores da plataforma e, para funcionar sem internet, uma cópia dos seus próprios dados fica no seu aparelho até você sair da conta.',
      ],
    },
    {
      heading: '4. Seus direitos',
      paragraphs: [
        'Em Meus Dados você pode corrigir seu cadastro, baixar uma cópia de tudo o que guardamos sobre você (Baixar meus dados) e excluir sua conta (Excluir minha conta).',
        'Ao excluir a conta, apagamos seu acesso e seus dados pessoais. Os registros de consultas que a lei nos obriga a guardar permanecem, anonimizados; consultas futuras são canceladas e os horários liberados.',
        `Para outros pedidos (informação sobre compartilhamento, revogação do consentimento, portabilidade), fale com o encarregado pelo e-mail ${appConfig.supportEmail}.`,
      ],
    },
    {
      heading: '5. Segurança',
      paragraphs: [
        'Cada pessoa só acessa os próprios dados; o médico, apenas os dos seus pacientes. O acesso é protegido por senha e conexões cifradas.',
      ],
    },
  ],
};

const reembolso: LegalDocument = {
  title: 'Política de Reembolso',
  intro: `Como funcionam cancelamentos e reembolsos das teleconsultas agendadas pelo ${appConfig.productName}.`,
  sections: [
    {
      heading: '1. Cancelamento pelo paciente',
      paragraphs: [
        `Você pode cancelar pelo painel até ${SELF_CANCEL_NOTICE_HOURS} horas antes do horário marcado. Depois disso, fale diretamente com o médico.`,
        'Um horário apenas reservado (sem guia e sem pagamento) pode ser liberado a qualquer momento.',
      ],
    },
    {
      heading: '2. Reembolso',
      paragraphs: [
        'Se o pagamento já foi feito e a consulta foi cancelada dentro do prazo, o valor é devolvido integralmente. O reembolso é combinado diretamente com o médico, pelo mesmo meio do pagamento.',
        'Se o médico cancelar ou não comparecer, você recebe o valor integral de volta ou pode remarcar sem custo.',
      ],
    },
    {
      heading: '3. Não comparecimento',
      paragraphs: [
        'Se você não comparecer sem cancelar no prazo, o reembolso fica a critério do médico.',
      ],
    },
    {
      heading: '4. Contato',
      paragraphs: [`Dúvidas sobre reembolsos: ${contact}.`],
    },
  ],
};

const consentimento: LegalDocument = {
  title: 'Termo de Consentimento para Telemedicina',
  intro: `${TERMS_VERSION_LABEL}. Ao criar sua conta, você declara que leu e concorda com este termo, conforme a Resolução CFM nº 2.314/2022 e a Lei nº 14.510/2022.`,
  sections: [
    {
      heading: '1. O que é a teleconsulta',
      paragraphs: [
        'É a consulta médica realizada a distância, por videochamada em plataforma regulamentada, com a mesma ética e o mesmo sigilo da consulta presencial.',
      ],
    },
    {
      heading: '2. Limites',
      paragraphs: [
        'O exame físico não é possível a distância. O médico pode concluir que o seu caso exige atendimento presencial e orientá-lo a procurá-lo.',
        'A teleconsulta não se destina a urgências e emergências.',
      ],
    },
    {
      heading: '3. Seus dados e o sigilo',
      paragraphs: [
        'As informações da consulta são protegidas por sigilo médico. A consulta não é gravada pela plataforma. Seus dados são tratados conforme a Política de Privacidade.',
      ],
    },
    {
      heading: '4. Registro do consentimento',
      paragraphs: [
        'Registramos a data, a hora e a versão deste termo quando você o aceita. O registro aparece em Baixar meus dados, e você pode revogar o consentimento excluindo sua conta ou falando com o suporte.',
      ],
    },
  ],
};

export const LEGAL_DOCUMENTS: Record<LegalDocumentKey, LegalDocument> = {
  termos,
  privacidade,
  reembolso,
  consentimento,
};
