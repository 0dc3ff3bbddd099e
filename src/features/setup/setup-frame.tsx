import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { css } from 'styled-system/css';
import { Alert } from '@/ui/alert.tsx';
import { Button, buttonClass } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';
import { Container } from '@/ui/container.tsx';
import { Spinner } from '@/ui/spinner.tsx';
import { SETUP_TEXTS } from './setup-answer.ts';

/** The card every setup page is drawn in. */
export function SetupFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container
      className={css({ py: { base: '8', md: '16' }, display: 'flex', justifyContent: 'center' })}
    >
      <Card className={css({ w: 'full', maxW: 'lg' })}>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{title}</h1>
        <div className={css({ mt: '5', display: 'flex', flexDirection: 'column', gap: '4' })}>
          {children}
        </div>
      </Card>
    </Container>
  );
}

export function SetupWorking({ label }: { label: string }) {
  return (
    <div role="status" className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
      <Spinner label={null} />
      <span>{label}</span>
    </div>
  );
}

export function SetupResult({
  tone,
  title,
  message,
  details = [],
  link,
}: {
  tone: 'success' | 'info' | 'destructive';
  title?: string;
  message: string;
  details?: readonly string[];
  link: { to: string; label: string };
}) {
  return (
    <>
      <Alert tone={tone} title={title} role={tone === 'destructive' ? 'alert' : 'status'}>
        <p>{message}</p>
        {details.length > 0 && (
          <ul className={css({ mt: '2', pl: '5', listStyle: 'disc', fontSize: 'sm' })}>
            {details.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        )}
      </Alert>
      <Link to={link.to} className={buttonClass({ variant: 'solid' }, css({ alignSelf: 'start' }))}>
        {link.label}
      </Link>
    </>
  );
}

/** Asks for the setup token; `refused` says the last one was wrong. */
export function SetupTokenForm({
  refused,
  onSubmit,
}: {
  refused: boolean;
  onSubmit: (token: string) => void;
}) {
  const [token, setToken] = useState('');
  const inputId = useId();
  const hintId = useId();
  return (
    <form
      aria-label={SETUP_TEXTS.tokenFormLabel}
      onSubmit={(event) => {
        event.preventDefault();
        if (token.trim()) onSubmit(token.trim());
      }}
      className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
    >
      <p id={hintId} className={css({ color: 'fg.muted', fontSize: 'sm' })}>
        {SETUP_TEXTS.tokenHint}
      </p>
      {refused && (
        <Alert tone="destructive" role="alert">
          {SETUP_TEXTS.tokenRefused}
        </Alert>
      )}
      <label htmlFor={inputId} className={css({ fontWeight: 'semibold', fontSize: 'sm' })}>
        {SETUP_TEXTS.tokenLabel}
      </label>
      <input
        id={inputId}
        type="password"
        autoComplete="off"
        required
        aria-describedby={hintId}
        value={token}
        onChange={(event) => setToken(event.target.value)}
        className={css({
          h: '10',
          px: '3',
          borderWidth: '1px',
          borderColor: 'border.strong',
          borderRadius: 'md',
          bg: 'bg.surface',
        })}
      />
      <Button type="submit" className={css({ alignSelf: 'start' })}>
        {SETUP_TEXTS.tokenSubmit}
      </Button>
    </form>
  );
}
