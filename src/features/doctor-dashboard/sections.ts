/** The dashboard's sections, in the navigation's order; the help section describes the others. */
export const DOCTOR_SECTIONS = [
  { value: 'consultas', label: 'Consultas' },
  { value: 'hoje', label: 'Hoje' },
  { value: 'perfil', label: 'Perfil' },
  { value: 'agenda', label: 'Agenda' },
  { value: 'financeiro', label: 'Financeiro' },
  { value: 'ajuda', label: 'Ajuda' },
] as const;

export type Section = (typeof DOCTOR_SECTIONS)[number]['value'];
