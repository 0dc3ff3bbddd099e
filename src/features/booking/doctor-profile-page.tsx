import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { of } from 'rxjs';
import { css } from 'styled-system/css';
import { doctorDisplayName, type ListedDoctor } from '@/domain/doctors/fixed-doctors.ts';
import { useObservable, useSyncSession } from '@/session/sync-provider.tsx';
import type { LoginDialogComponent } from '@/session/feature-slots.ts';
import { BookingFlowProvider } from './booking-flow.tsx';
import { DoctorAvailability } from './doctor-availability.tsx';
import { appConfig } from '@/lib/config.ts';
import { Alert } from '@/ui/alert.tsx';
import { buttonClass } from '@/ui/button.tsx';
import { Container } from '@/ui/container.tsx';
import { PageSpinner } from '@/ui/spinner.tsx';
import { DoctorCard } from './doctor-card.tsx';
import { toPublicDoctor } from './public-doctor.ts';

export const PROFILE_TEXTS = {
  errorTitle: 'Erro ao Carregar Perfil',
  missingId: 'ID do médico não fornecido.',
  notFound: 'Médico não encontrado ou não está disponível publicamente.',
  allDoctors: 'Ver todos os médicos',
} as const;

export function profileTitle(name: string): string {
  return `${name} | ${appConfig.productName}`;
}

export function profileDescription(name: string, specialty: string): string {
  return `Agende uma consulta com ${name}, especialista em ${specialty}.`;
}

function ProfileError({ message }: { message: string }) {
  return (
    <Container className={css({ py: '12', maxW: '2xl' })}>
      <Alert tone="destructive" role="alert" title={PROFILE_TEXTS.errorTitle}>
        <p>{message}</p>
      </Alert>
      <Link to="/agendamentos" className={buttonClass({ variant: 'outline' }, css({ mt: '6' }))}>
        {PROFILE_TEXTS.allDoctors}
      </Link>
    </Container>
  );
}

function Profile({ id }: { id: string }) {
  const { engine, failed } = useSyncSession();
  const doctor$ = useMemo(() => engine?.doctor$(id) ?? null, [engine, id]);
  const status$ = useMemo(() => engine?.status$ ?? of(null), [engine]);
  const doc = useObservable(doctor$, undefined);
  const status = useObservable(status$, null);
  const doctor: ListedDoctor | null = useMemo(() => {
    if (!doc) return null;
    const publicDoctor = toPublicDoctor(doc);
    return publicDoctor.is_public && publicDoctor.is_active
      ? { ...publicDoctor, is_fallback: false }
      : null;
  }, [doc]);

  const settled = status !== null && (status.initialSync.done || !status.online);
  if (!doctor) {
    if (failed || (doc !== undefined && settled)) {
      return <ProfileError message={PROFILE_TEXTS.notFound} />;
    }
    return <PageSpinner />;
  }
  const name = doctorDisplayName(doctor);
  return (
    <Container className={css({ py: { base: '8', md: '12' } })}>
      <title>{profileTitle(name)}</title>
      <meta name="description" content={profileDescription(name, doctor.specialty)} />
      <DoctorCard doctor={doctor} as="h1">
        <DoctorAvailability doctor={doctor} />
      </DoctorCard>
    </Container>
  );
}

/** /medico/{id}: one doctor's public profile with the booking grid. */
export function DoctorProfilePage({ loginDialog }: { loginDialog: LoginDialogComponent }) {
  const { id } = useParams();
  if (!id?.trim()) return <ProfileError message={PROFILE_TEXTS.missingId} />;
  return (
    <BookingFlowProvider LoginDialog={loginDialog}>
      <Profile id={id} />
    </BookingFlowProvider>
  );
}
