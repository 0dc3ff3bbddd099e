import { isPaid } from './status.ts';
import type { AppointmentState } from './status.ts';

/** success = green, warning = amber, info = neutral-blue, destructive = red. */
export type BadgeTone = 'success' | 'warning' | 'info' | 'destructive';
export type Badge = { label: string; tone: BadgeTone };

/**
 * Doctor list badge. An upcoming status whose payment was cancelled reads as cancelled — the
 * doctor list already files it under history.
 */
export function doctorBadge(appointment: AppointmentState): Badge {
  switch (appointment.status) {
    case 'atendido':
      return { label: 'Atendido', tone: 'info' };
    case 'cancelado':
      return { label: 'Cancelado', tone: 'destructive' };
    case 'expirado':
      return { label: 'Expirado', tone: 'destructive' };
    case 'confirmado':
    case 'reagendado':
    case 'pendente':
      if (appointment.pagamento_status === 'cancelado') {
        return { label: 'Cancelado', tone: 'destructive' };
      }
      return isPaid(appointment)
        ? { label: 'Confirmado', tone: 'success' }
        : { label: 'Agendado', tone: 'warning' };
  }
}

export function patientBadge(appointment: AppointmentState): Badge {
  switch (appointment.status) {
    case 'atendido':
      return { label: 'Realizada', tone: 'info' };
    case 'cancelado':
      return { label: 'Cancelada', tone: 'destructive' };
    case 'expirado':
      return { label: 'Expirada', tone: 'destructive' };
    case 'confirmado':
    case 'reagendado':
    case 'pendente':
      if (appointment.pagamento_status === 'cancelado') {
        return { label: 'Cancelada', tone: 'destructive' };
      }
      return isPaid(appointment)
        ? { label: 'Confirmada e Paga', tone: 'success' }
        : { label: 'Aguardando Pagamento', tone: 'warning' };
  }
}
