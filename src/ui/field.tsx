import { useId, type ComponentProps, type ReactNode } from 'react';
import { Field } from '@ark-ui/react/field';
import { css, cx } from 'styled-system/css';
import { field, input } from 'styled-system/recipes';

const styles = field();

export type TextFieldProps = ComponentProps<'input'> & {
  label: string;
  /** Validation message; marks the input invalid and is announced with it. */
  error?: string | undefined;
  helperText?: ReactNode;
  /** Control inside the input's right edge, e.g. a show/hide password toggle. */
  endAdornment?: ReactNode;
};

/** Labelled text input with helper and error text wired through aria attributes by Ark's Field. */
export function TextField({
  label,
  error,
  helperText,
  endAdornment,
  className,
  required,
  disabled,
  readOnly,
  ...inputProps
}: TextFieldProps) {
  return (
    <Field.Root
      invalid={Boolean(error)}
      required={required}
      disabled={disabled}
      readOnly={readOnly}
      className={cx(styles.root, className)}
    >
      <Field.Label className={styles.label}>{label}</Field.Label>
      <div className={css({ position: 'relative' })}>
        <Field.Input
          className={cx(input(), endAdornment ? css({ pr: '12' }) : undefined)}
          {...inputProps}
        />
        {endAdornment && (
          <div
            className={css({
              position: 'absolute',
              insetY: '0',
              right: '1',
              display: 'flex',
              alignItems: 'center',
            })}
          >
            {endAdornment}
          </div>
        )}
      </div>
      {helperText && (
        <Field.HelperText className={styles.helperText}>{helperText}</Field.HelperText>
      )}
      <Field.ErrorText className={styles.errorText}>{error}</Field.ErrorText>
    </Field.Root>
  );
}

export type TextAreaFieldProps = ComponentProps<'textarea'> & {
  label: string;
  error?: string | undefined;
  helperText?: ReactNode;
};

/** Labelled multi-line input, wired like TextField. */
export function TextAreaField({
  label,
  error,
  helperText,
  className,
  required,
  disabled,
  readOnly,
  ...textareaProps
}: TextAreaFieldProps) {
  return (
    <Field.Root
      invalid={Boolean(error)}
      required={required}
      disabled={disabled}
      readOnly={readOnly}
      className={cx(styles.root, className)}
    >
      <Field.Label className={styles.label}>{label}</Field.Label>
      <Field.Textarea
        className={cx(input(), css({ h: 'auto', minH: '24', py: '2', resize: 'vertical' }))}
        {...textareaProps}
      />
      {helperText && (
        <Field.HelperText className={styles.helperText}>{helperText}</Field.HelperText>
      )}
      <Field.ErrorText className={styles.errorText}>{error}</Field.ErrorText>
    </Field.Root>
  );
}

export type CheckboxFieldProps = Omit<ComponentProps<'input'>, 'type'> & {
  label: ReactNode;
  /** Validation message; marks the box invalid and is announced with it. */
  error?: string | undefined;
  helperText?: ReactNode;
};

/** A native checkbox with its label beside it (links inside the label stay links). */
export function CheckboxField({
  label,
  error,
  helperText,
  className,
  id,
  ...inputProps
}: CheckboxFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const describedBy = [helperText && `${inputId}-help`, error && `${inputId}-error`]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={cx(styles.root, className)}>
      <div className={css({ display: 'flex', gap: '3', alignItems: 'flex-start' })}>
        <input
          type="checkbox"
          id={inputId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          className={css({
            w: '5',
            h: '5',
            mt: '0.5',
            flexShrink: 0,
            accentColor: 'var(--colors-primary)',
            cursor: 'pointer',
          })}
          {...inputProps}
        />
        <label htmlFor={inputId} className={css({ fontSize: 'sm', lineHeight: '1.5' })}>
          {label}
        </label>
      </div>
      {helperText && (
        <p id={`${inputId}-help`} className={styles.helperText}>
          {helperText}
        </p>
      )}
      {error && (
        <p id={`${inputId}-error`} className={styles.errorText}>
          {error}
        </p>
      )}
    </div>
  );
}
