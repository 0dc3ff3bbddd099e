import { css } from 'styled-system/css';
import type { Role } from '@/session/profile.ts';
import { useSignOutToHome } from '@/session/use-sign-out.ts';
import { Button } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';
import { Container } from '@/ui/container.tsx';

const ROLE_AUDIENCE: Record<Role, string> = { medico: 'médicos', paciente: 'pacientes' };

export function audienceOf(roles: readonly Role[]): string {
  return roles.map((role) => ROLE_AUDIENCE[role]).join(' e ');
}

export function AccessDenied({ roles }: { roles: readonly Role[] }) {
  const signOutToHome = useSignOutToHome();
  return (
    <Container className={css({ py: '16', display: 'flex', justifyContent: 'center' })}>
      <Card className={css({ maxW: 'md', textAlign: 'center' })} role="alert">
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', color: 'destructive.fg' })}>
          Acesso Restrito
        </h1>
        <p className={css({ mt: '3' })}>Você não tem permissão para acessar esta página.</p>
        <p className={css({ mt: '1', color: 'fg.muted' })}>
          Esta área é exclusiva para {audienceOf(roles)}.
        </p>
        <Button className={css({ mt: '6' })} onClick={() => void signOutToHome()}>
          Sair
        </Button>
      </Card>
    </Container>
  );
}
