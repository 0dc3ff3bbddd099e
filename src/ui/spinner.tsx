import { css, cx } from 'styled-system/css';
import { spinner, type SpinnerVariantProps } from 'styled-system/recipes';

type SpinnerProps = SpinnerVariantProps & {
  /** Accessible name; `null` when the surrounding control already announces the state. */
  label?: string | null;
  className?: string;
};

export function Spinner({ size, label = 'Carregando...', className }: SpinnerProps) {
  if (label === null)
    return <span aria-hidden="true" className={cx(spinner({ size }), className)} />;
  return (
    <span role="status" className={cx(css({ display: 'inline-flex' }), className)}>
      <span aria-hidden="true" className={spinner({ size })} />
      <span className={css({ srOnly: true })}>{label}</span>
    </span>
  );
}

/** Centered spinner for a whole page or panel while its data resolves. */
export function PageSpinner({ label = 'Carregando...' }: { label?: string }) {
  return (
    <div
      className={css({
        display: 'flex',
        justifyContent: 'center',
        alignItems: 'center',
        minH: '60vh',
        color: 'primary',
      })}
    >
      <Spinner size="lg" label={label} />
    </div>
  );
}
