import { useState } from 'react';
import { css } from 'styled-system/css';
import { TextField, type TextFieldProps } from '@/ui/field.tsx';

function EyeIcon({ open }: { open: boolean }) {
  return (
    <svg
      aria-hidden="true"
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
      <circle cx="12" cy="12" r="3" />
      {!open && <path d="M3 3l18 18" />}
    </svg>
  );
}

type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'endAdornment'> & {
  /**
   * What the toggle shows, as a noun ('senha' unless told): the label is an instruction
   * ('Confirmar Nova Senha') and would read 'Mostrar confirmar nova senha'.
   */
  revealNoun?: string;
};

/** Password input with a show/hide toggle that says what it will do next. */
export function PasswordField({ revealNoun = 'senha', ...props }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      endAdornment={
        <button
          type="button"
          onClick={() => setVisible((shown) => !shown)}
          aria-label={visible ? `Ocultar ${revealNoun}` : `Mostrar ${revealNoun}`}
          className={css({
            display: 'inline-flex',
            alignItems: 'center',
            justifyContent: 'center',
            w: '10',
            h: '10',
            borderRadius: 'md',
            color: 'fg.muted',
            cursor: 'pointer',
            _hover: { color: 'fg', bg: 'bg.subtle' },
          })}
        >
          <EyeIcon open={!visible} />
        </button>
      }
    />
  );
}
