import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import type { MedicoDoc } from '../../../sync/index.ts';
import { Card } from '@/ui/card.tsx';
import { SupportContacts } from '@/ui/support-contacts.tsx';
import { DOCTOR_SECTIONS, type Section } from './sections.ts';

export const HELP_TEXTS = {
  title: 'Ajuda',
  subtitle: 'Como funciona o seu painel e como falar com a nossa equipe.',
  sectionsTitle: 'As seções do painel',
  offlineTitle: 'Sem internet no consultório?',
  syncTitle: 'O indicador de sincronização',
  supportTitle: 'Fale com o suporte',
} as const;

/** What each section holds, under its name in the navigation. */
const SECTION_HELP: Record<Exclude<Section, 'ajuda'>, string> = {
  consultas:
    'Suas próximas consultas e o histórico, 10 por página, com busca pelo nome do paciente ou pelo protocolo. Em cada consulta: confirmar pagamento, fazer o check-in, cancelar e salvar o link da videochamada.',
  hoje: 'As consultas do dia em ordem de horário, com a próxima em destaque, se o paciente já pagou e o botão “Entrar na sala” quando há link. É a tela para abrir no consultório, mesmo sem internet.',
  perfil:
    'Os dados do seu cartão público em /agendamentos: nome, especialidade, CRM, UF, preço, apresentação, link de avaliações e a sua foto. Também tem o link para alterar a senha.',
  agenda:
    'Os blocos de atendimento de cada dia da semana. Só o que você adiciona, altera ou remove é salvo, e os pacientes veem os novos horários na hora. O mesmo editor abre em /agendamentos pelo botão “Editar Horários”.',
  financeiro:
    'Quanto você recebeu e quanto há a receber no mês e mês a mês, a lista das consultas pagas e a exportação em CSV para planilhas.',
};

const OFFLINE_POINTS = [
  'Depois de abrir o painel uma vez com internet, ele abre neste aparelho mesmo sem conexão, com as suas consultas, os dados dos pacientes e as guias.',
  'Confirmar pagamento, check-in, cancelamento, link da consulta, alterações de agenda e de perfil feitas sem internet ficam guardadas e são enviadas sozinhas, uma única vez, quando a conexão voltar.',
  'Se o servidor recusar uma ação (por exemplo, o paciente cancelou nesse meio-tempo), o painel avisa e desfaz a alteração na tela.',
  'Se o mesmo dado de perfil ou de agenda for alterado em outro aparelho antes de a sua alteração chegar, fica a versão já salva, e o painel avisa para você conferir.',
  'O envio da foto do perfil precisa de internet.',
  'Ao sair da conta, os dados guardados neste aparelho são apagados; se houver alterações pendentes, espere a conexão voltar antes de sair.',
];

const SYNC_POINTS = [
  '“Você está offline”: sem conexão; você continua trabalhando com os dados deste aparelho.',
  '“N alterações pendentes”: ações feitas aqui que ainda vão ser enviadas ao servidor.',
  '“Sincronizado há N min”: a última vez em que este aparelho recebeu tudo do servidor.',
  'Uma barra de progresso aparece no topo enquanto os dados são carregados pela primeira vez neste aparelho.',
];

function HelpCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold', mb: '3' })}>{title}</h2>
      {children}
    </Card>
  );
}

const list = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '2',
  pl: '5',
  listStyleType: 'disc',
  fontSize: 'sm',
});

/** The 'Ajuda' section: how the dashboard works (sections, offline, sync) and support contacts. */
export function HelpTab(_props: { doctor: MedicoDoc }) {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6', minW: '0' })}>
      <header>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{HELP_TEXTS.title}</h1>
        <p className={css({ mt: '1', color: 'fg.muted' })}>{HELP_TEXTS.subtitle}</p>
      </header>
      <HelpCard title={HELP_TEXTS.sectionsTitle}>
        <dl className={css({ display: 'flex', flexDirection: 'column', gap: '3', fontSize: 'sm' })}>
          {DOCTOR_SECTIONS.map(({ value, label }) =>
            value === 'ajuda' ? null : (
              <div key={value}>
                <dt className={css({ fontWeight: 'semibold' })}>{label}</dt>
                <dd className={css({ color: 'fg.muted' })}>{SECTION_HELP[value]}</dd>
              </div>
            ),
          )}
        </dl>
      </HelpCard>
      <HelpCard title={HELP_TEXTS.offlineTitle}>
        <ul className={list}>
          {OFFLINE_POINTS.map((point) => (
            <li key={point}>{point}</li>
          ))}
        </ul>
      </HelpCard>
      <HelpCard title={HELP_TEXTS.syncTitle}>
        <ul className={list}>
          {SYNC_POINTS.map((point) => (
            <li key={point}>{point}</li>
          ))}
        </ul>
      </HelpCard>
      <section aria-labelledby="help-support">
        <h2 id="help-support" className={css({ fontSize: 'lg', fontWeight: 'semibold', mb: '3' })}>
          {HELP_TEXTS.supportTitle}
        </h2>
        <SupportContacts />
      </section>
    </div>
  );
}
