/**
 * docs/product-rules.md §4 "Live updates": what a person looking at a grid, a doctor's card or
 * the doctor's own lists is told when someone else changes them. The doctor-profile words are
 * ours: the product rules say only that the cards toast.
 */
export const LIVE_TEXTS = {
  slots: {
    title: 'Agenda atualizada em tempo real!',
    description: 'Um horário foi agendado ou cancelado.',
  },
  availability: {
    title: 'Agenda atualizada!',
    description: 'Os horários do médico foram atualizados.',
  },
  doctor: {
    title: 'Perfil atualizado!',
    description: 'As informações do médico foram atualizadas.',
  },
} as const;
