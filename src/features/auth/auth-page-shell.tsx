import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Card } from '@/ui/card.tsx';
import { Container } from '@/ui/container.tsx';

type AuthPageShellProps = { title: string; description?: ReactNode; children: ReactNode };

/** The narrow centered card every account screen uses. */
export function AuthPageShell({ title, description, children }: AuthPageShellProps) {
  return (
    <Container
      className={css({ py: { base: '8', md: '14' }, display: 'flex', justifyContent: 'center' })}
    >
      <Card className={css({ w: 'full', maxW: 'md' })}>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', color: 'fg' })}>{title}</h1>
        {description && <p className={css({ mt: '1', color: 'fg.muted' })}>{description}</p>}
        <div className={css({ mt: '6' })}>{children}</div>
      </Card>
    </Container>
  );
}
