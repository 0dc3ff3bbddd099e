import { Link, NavLink } from 'react-router-dom';
import { css } from 'styled-system/css';
import { appConfig } from '@/lib/config.ts';
import { buttonClass, Button } from '@/ui/button.tsx';
import { Container } from '@/ui/container.tsx';
import { LogoMark } from '@/ui/logo.tsx';
import { Skeleton } from '@/ui/skeleton.tsx';
import { dashboardPath, useAuth } from '@/session/auth-context.ts';
import { useSignOutToHome } from '@/session/use-sign-out.ts';

const bar = css({
  position: 'sticky',
  top: '0',
  zIndex: 'sticky',
  bg: 'bg.surface/95',
  backdropFilter: 'blur(8px)',
  borderBottomWidth: '1px',
  borderColor: 'border',
});

const row = css({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: { base: '2', sm: '3' },
  minH: '16',
  py: '2',
});

const brand = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '2',
  fontWeight: 'extrabold',
  fontSize: { base: 'lg', sm: 'xl' },
  color: 'primary.text',
  textDecoration: 'none',
  whiteSpace: 'nowrap',
});

const actions = css({ display: 'flex', alignItems: 'center', gap: { base: '1.5', sm: '2' } });

/**
 * Narrow phones (360 px) fit the logo and both area buttons on one line; the smallest (320 px,
 * or large text) get a smaller type rather than a page that scrolls sideways.
 */
const compact = css({
  px: { base: '2', sm: '3' },
  fontSize: 'xs',
  '@media (min-width: 360px)': { fontSize: 'sm' },
});

const wideOnly = css({ display: { base: 'none', md: 'inline-flex' } });

export function Header() {
  const { loading, session, role } = useAuth();
  const signOutToHome = useSignOutToHome();

  return (
    <header className={bar}>
      <Container className={row}>
        <Link to="/" className={brand} aria-label={`${appConfig.productName} - página inicial`}>
          <LogoMark size={30} />
          <span className={css({ display: { base: 'none', sm: 'inline' } })}>
            {appConfig.productName}
          </span>
        </Link>
        <nav aria-label="Principal" className={actions}>
          <NavLink
            to="/agendamentos"
            className={buttonClass({ variant: 'ghost', size: 'sm' }, wideOnly)}
          >
            Agendar Consulta
          </NavLink>
          {loading ? (
            <Skeleton className={css({ w: '40', h: '9' })} />
          ) : session ? (
            <>
              <Link
                to={dashboardPath(role)}
                className={buttonClass({ variant: 'solid', size: 'sm' }, compact)}
              >
                Meu Painel
              </Link>
              <Button
                variant="outline"
                size="sm"
                className={compact}
                onClick={() => void signOutToHome()}
              >
                Sair
              </Button>
            </>
          ) : (
            <>
              <Link
                to="/acesso-paciente"
                className={buttonClass({ variant: 'solid', size: 'sm' }, compact)}
              >
                Área do Paciente
              </Link>
              <Link
                to="/acesso-medico"
                className={buttonClass({ variant: 'outline', size: 'sm' }, compact)}
              >
                Área do Médico
              </Link>
            </>
          )}
        </nav>
      </Container>
    </header>
  );
}
