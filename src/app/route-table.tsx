import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import type { Role } from '@/session/profile.ts';
import { DOCTOR_SETUP_PATHS } from '@/features/setup/setup-paths.ts';
import { appConfig } from '@/lib/config.ts';
import { BOOKING_PATH, DOCTOR_DASHBOARD_PATH, PATIENT_DASHBOARD_PATH } from './page-paths.ts';
import { RequireRole } from './require-role.tsx';
import LandingRoute from './routes/landing.tsx';

type RouteModule = { default: ComponentType };

export type AppRoute = {
  path: string;
  /** Guarded by docs/product-rules.md §2's wrapper when set. */
  roles?: readonly Role[];
  /** Document title; omitted when the page builds its own from data. */
  title?: string;
} & (
  | {
      /** Loaded on demand so the landing page ships only its own code. */
      load: () => Promise<RouteModule>;
    }
  | {
      /** Bundled with the app shell (the landing page, the first screen most people see). */
      component: ComponentType;
    }
);

const titled = (page: string) => `${page} - ${appConfig.productName}`;
const PATIENT: readonly Role[] = ['paciente'];
const DOCTOR: readonly Role[] = ['medico'];
const SIGNED_IN: readonly Role[] = ['medico', 'paciente'];

/** Every route of docs/product-rules.md §2. Replace a placeholder by pointing `load` at the real module. */
export const appRoutes: AppRoute[] = [
  {
    path: '/',
    component: LandingRoute,
    title: `${appConfig.productName} - Sua saúde a um clique de distância`,
  },
  {
    path: BOOKING_PATH,
    load: () => import('./routes/booking.tsx'),
    title: titled('Agende sua consulta'),
  },
  { path: '/suporte', load: () => import('./routes/support.tsx'), title: titled('Suporte') },
  // The footer's legal pages (templates for the clinic to review).
  {
    path: '/termos',
    load: () => import('./routes/legal-termos.tsx'),
    title: titled('Termos de Serviço'),
  },
  {
    path: '/privacidade',
    load: () => import('./routes/legal-privacidade.tsx'),
    title: titled('Política de Privacidade'),
  },
  {
    path: '/reembolso',
    load: () => import('./routes/legal-reembolso.tsx'),
    title: titled('Política de Reembolso'),
  },
  {
    path: '/consentimento',
    load: () => import('./routes/legal-consentimento.tsx'),
    title: titled('Consentimento para Telemedicina'),
  },
  { path: '/medico/:id', load: () => import('./routes/doctor-profile.tsx') },
  {
    path: '/acesso-paciente',
    load: () => import('./routes/patient-login.tsx'),
    title: titled('Área do Paciente'),
  },
  {
    path: '/acesso-medico',
    load: () => import('./routes/doctor-login.tsx'),
    title: titled('Área do Médico'),
  },
  {
    path: '/recuperar-senha',
    load: () => import('./routes/recover-password.tsx'),
    title: titled('Recuperar Senha'),
  },
  {
    path: '/auth/reset-password',
    load: () => import('./routes/reset-password.tsx'),
    title: titled('Crie sua nova senha'),
  },
  {
    path: '/confirmacao-cadastro',
    load: () => import('./routes/confirm-signup.tsx'),
    title: titled('Confirme seu E-mail'),
  },
  {
    path: '/cadastro-sucesso',
    load: () => import('./routes/signup-success.tsx'),
    title: titled('Cadastro realizado'),
  },
  {
    path: DOCTOR_DASHBOARD_PATH,
    load: () => import('./routes/doctor-dashboard.tsx'),
    roles: DOCTOR,
    title: titled('Painel do Médico'),
  },
  {
    path: PATIENT_DASHBOARD_PATH,
    load: () => import('./routes/patient-dashboard.tsx'),
    roles: PATIENT,
    title: titled('Painel do Paciente'),
  },
  {
    path: '/conta/alterar-senha',
    load: () => import('./routes/change-password.tsx'),
    roles: SIGNED_IN,
    title: titled('Alterar Senha'),
  },
  {
    path: '/checkout',
    load: () => import('./routes/checkout.tsx'),
    roles: PATIENT,
    title: titled('Confirmar Agendamento'),
  },
  {
    path: '/confirmacao',
    load: () => import('./routes/checkout.tsx'),
    roles: PATIENT,
    title: titled('Confirmar Agendamento'),
  },
  {
    path: '/agendamento-sucesso',
    load: () => import('./routes/booking-success.tsx'),
    roles: PATIENT,
    title: titled('Agendamento Concluído'),
  },
  {
    path: '/consulta/:agendamentoId',
    load: () => import('./routes/consultation-room.tsx'),
    roles: SIGNED_IN,
    title: titled('Sala da consulta'),
  },
  {
    path: '/guia/:guideId',
    load: () => import('./routes/guide.tsx'),
    roles: SIGNED_IN,
    title: titled('Guia de Atendimento'),
  },
];

/** docs/product-rules.md §2 setup and admin pages: no login guard; the functions behind them check the token. */
const SETUP_TITLE = titled('Configuração de Conta de Médico');
appRoutes.push(
  ...DOCTOR_SETUP_PATHS.map((path) => ({
    path,
    load: () => import('./routes/doctor-setup.tsx'),
    title: SETUP_TITLE,
  })),
  {
    path: '/admin/cleanup-doctors',
    load: () => import('./routes/cleanup-doctors.tsx'),
    title: titled('Limpeza de Perfis Duplicados'),
  },
  {
    path: '/admin/handle-application',
    load: () => import('./routes/handle-application.tsx'),
    title: titled('Solicitação de Cadastro de Médico'),
  },
);

/** A table entry as a router route: guarded entries nest under `RequireRole`. */
export function toRouteObject(route: AppRoute): RouteObject {
  const leaf: RouteObject = {
    path: route.path,
    handle: { title: route.title },
    ...('component' in route
      ? { Component: route.component }
      : {
          lazy: async () => {
            const module = await route.load();
            return { Component: module.default };
          },
        }),
  };
  if (!route.roles) return leaf;
  return { element: <RequireRole roles={route.roles} />, children: [leaf] };
}

/** docs/product-rules.md §2: any other path goes home. */
export const unknownPathRoute: RouteObject = { path: '*', element: <Navigate to="/" replace /> };
