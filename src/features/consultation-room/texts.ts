import type { LinkQuality } from '@/domain/call/audio-only-rule.ts';
import type { ConnectionCheckResult } from './connection-check.ts';
import type { MediaProblem } from './local-media.ts';

export const ROOM_TEXTS = {
  title: 'Sala da consulta',
  back: 'Voltar ao painel',
  loading: 'Carregando a consulta…',
  notFound: 'Consulta não encontrada',
  notFoundDescription:
    'Esta consulta não está entre as suas. Confira o link ou abra a consulta pelo seu painel.',
  closed: 'Esta consulta foi cancelada e a sala está fechada.',
  roomClosed: 'A sala desta consulta já foi fechada.',
  offline: 'Sem conexão com a internet',
  offlineDescription:
    'A chamada de vídeo precisa de conexão. Os dados da consulta abaixo estão salvos neste aparelho; a sala abre assim que a conexão voltar.',
  refused: 'Você não tem acesso a esta sala',
  refusedDescription: 'Só o paciente e o médico desta consulta podem entrar na sala.',
  withDoctor: (name: string) => `Consulta com ${name}`,
  withPatient: (name: string) => `Consulta de ${name}`,

  checkTitle: 'Testar câmera e microfone',
  checkIntro:
    'Confira se você aparece na imagem, se a barra do microfone se mexe quando você fala e se ouve o som de teste.',
  camera: 'Câmera',
  microphone: 'Microfone',
  speaker: 'Alto-falante',
  defaultDevice: 'Padrão do aparelho',
  micLevel: 'Nível do microfone',
  testSound: 'Tocar som de teste',
  testSoundPlaying: 'Tocando…',
  testSoundHint: 'Ouviu um bipe? Se não, aumente o volume ou escolha outro alto-falante.',
  connection: 'Conexão',
  checkingConnection: 'Verificando a conexão…',
  enterWaiting: 'Entrar na sala de espera',
  enterRoom: 'Entrar na sala',
  retry: 'Tentar novamente',
  previewLabel: 'Sua imagem',

  waitingDoctor: 'Aguardando o médico…',
  waitingDoctorHint:
    'O médico vai iniciar a consulta. Mantenha esta página aberta; você entra na chamada automaticamente.',
  patientWaiting: 'O paciente está na sala de espera.',
  patientNotYet: 'O paciente ainda não entrou na sala.',
  doctorHint:
    'Você pode iniciar quando quiser; se o paciente ainda não chegou, ele entra na chamada ao chegar.',
  start: 'Iniciar consulta',

  connecting: 'Conectando…',
  reconnecting: 'Reconectando…',
  weakLink: 'Conexão fraca — continuando só com áudio',
  audioOnlyManual: 'Só áudio: sua câmera não está sendo enviada.',
  peerAudioOnly: 'O outro participante está só com áudio.',
  peerMuted: 'Microfone desligado',
  peerCameraOff: 'Câmera desligada',
  peerAway: 'A conexão do outro participante caiu. Aguardando ele voltar…',
  remoteVideo: 'Vídeo do outro participante',
  localVideo: 'Sua imagem',
  mute: 'Desligar microfone',
  unmute: 'Ligar microfone',
  cameraOff: 'Desligar câmera',
  cameraOn: 'Ligar câmera',
  switchCamera: 'Trocar câmera',
  audioOnly: 'Só áudio',
  end: 'Encerrar',
  enableSound: 'Ativar som da chamada',
  quality: 'Qualidade da conexão',

  ended: 'Consulta encerrada',
  endedByPeer: 'A chamada foi encerrada pelo outro participante.',
  checkIn: 'Fazer Check-in',
  checkedIn: 'Check-in registrado.',
  restart: 'Iniciar novamente',
  rejoin: 'Voltar para a sala de espera',
} as const;

export const QUALITY_TEXTS: Record<LinkQuality, string> = {
  boa: 'Boa',
  instavel: 'Instável',
  fraca: 'Fraca',
};

/** What went wrong with the camera or microphone, and what to do about it. */
export function mediaProblemText(kind: 'camera' | 'microphone', problem: MediaProblem): string {
  const device = kind === 'camera' ? 'câmera' : 'microfone';
  const the = kind === 'camera' ? 'a câmera' : 'o microfone';
  switch (problem) {
    case 'permission':
      return `Permissão negada: o navegador não deixou o site usar ${the}. Toque no cadeado ao lado do endereço do site, permita câmera e microfone e toque em 'Tentar novamente'. No iPhone: Ajustes › Safari › Câmera e Microfone.`;
    case 'no-device':
      return kind === 'camera'
        ? 'Nenhuma câmera encontrada. Conecte uma câmera ou siga só com áudio — a consulta funciona assim também.'
        : "Nenhum microfone encontrado. Conecte um fone com microfone e toque em 'Tentar novamente'.";
    case 'in-use':
      return `Não foi possível abrir ${the}: outro aplicativo está usando. Feche-o (por exemplo, outra chamada de vídeo) e toque em 'Tentar novamente'.`;
    case 'insecure':
      return `O navegador só libera ${the} em páginas seguras (https). Abra o site pelo endereço oficial.`;
    case 'unknown':
      return `Não foi possível abrir ${the} (${device}). Toque em 'Tentar novamente' ou reinicie o navegador.`;
  }
}

export const MEDIA_OK = {
  camera: 'Câmera funcionando.',
  microphone: 'Microfone funcionando — fale e veja a barra se mexer.',
} as const;

export const CONNECTION_TEXTS: Record<ConnectionCheckResult, { ok: boolean; text: string }> = {
  relay: {
    ok: true,
    text: 'Conexão verificada: a chamada passa pela sua rede, mesmo que ela tenha bloqueios.',
  },
  direct: { ok: true, text: 'Conexão verificada: sua rede permite a chamada.' },
  blocked: {
    ok: false,
    text: 'Sua rede parece bloquear chamadas de vídeo. Tente outra rede (por exemplo, os dados móveis do celular) ou peça ao responsável pela rede que libere chamadas de vídeo.',
  },
  'local-only': {
    ok: true,
    text: 'Sem servidor de conexão configurado: a chamada funciona se sua rede permitir conexão direta.',
  },
};
