import type { ComponentProps, ReactNode } from 'react';
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
