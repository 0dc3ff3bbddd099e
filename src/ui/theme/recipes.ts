import { defineRecipe, defineSlotRecipe } from '@pandacss/dev';
import { dialogAnatomy, fieldAnatomy, tabsAnatomy, tooltipAnatomy } from '@ark-ui/react/anatomy';

const button = defineRecipe({
  className: 'button',
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '2',
    fontWeight: 'semibold',
    borderRadius: 'lg',
    borderWidth: '1px',
    borderColor: 'transparent',
    cursor: 'pointer',
    whiteSpace: 'nowrap',
    textDecoration: 'none',
    transition: 'background 0.15s, color 0.15s, border-color 0.15s',
    _disabled: { opacity: 0.55, cursor: 'not-allowed' },
  },
  variants: {
    variant: {
      solid: {
        bg: 'primary',
        color: 'primary.fg',
        _hover: { _enabled: { bg: 'primary.hover' } },
      },
      outline: {
        bg: 'bg.surface',
        color: 'primary.text',
        borderColor: 'primary',
        _hover: { _enabled: { bg: 'primary.subtle' } },
      },
      ghost: {
        bg: 'transparent',
        color: 'fg',
        _hover: { _enabled: { bg: 'bg.subtle' } },
      },
      destructive: {
        bg: 'destructive',
        color: 'white',
        _hover: { _enabled: { bg: 'destructive.hover' } },
      },
      link: {
        bg: 'transparent',
        color: 'primary.text',
        px: '0!',
        h: 'auto!',
        textDecoration: 'underline',
        textUnderlineOffset: '3px',
      },
    },
    size: {
      sm: { h: '9', px: '3', fontSize: 'sm' },
      md: { h: '11', px: '4', fontSize: 'md' },
      lg: { h: '12', px: '6', fontSize: 'lg' },
    },
    fullWidth: { true: { w: 'full' } },
  },
  defaultVariants: { variant: 'solid', size: 'md' },
});

const input = defineRecipe({
  className: 'input',
  base: {
    w: 'full',
    h: '11',
    px: '3',
    fontSize: 'md',
    bg: 'bg.surface',
    color: 'fg',
    borderWidth: '1px',
    borderColor: 'border.strong',
    borderRadius: 'lg',
    _placeholder: { color: 'slate.500' },
    _focusVisible: { outline: '3px solid', outlineColor: 'focus', outlineOffset: '0' },
    _invalid: { borderColor: 'destructive' },
    _disabled: { bg: 'bg.subtle', cursor: 'not-allowed' },
    _readOnly: { bg: 'bg.subtle' },
  },
});

const badge = defineRecipe({
  className: 'badge',
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: '1',
    px: '2.5',
    py: '0.5',
    fontSize: 'xs',
    fontWeight: 'semibold',
    borderRadius: 'full',
    borderWidth: '1px',
    whiteSpace: 'nowrap',
  },
  variants: {
    tone: {
      success: { bg: 'success.bg', color: 'success.fg', borderColor: 'success.border' },
      amber: { bg: 'amber.bg', color: 'amber.fg', borderColor: 'amber.border' },
      destructive: {
        bg: 'destructive.bg',
        color: 'destructive.fg',
        borderColor: 'destructive.border',
      },
      neutral: { bg: 'neutral.bg', color: 'neutral.fg', borderColor: 'neutral.border' },
      primary: { bg: 'primary.subtle', color: 'primary.text', borderColor: 'primary.muted' },
    },
  },
  defaultVariants: { tone: 'neutral' },
});

const card = defineRecipe({
  className: 'card',
  base: {
    bg: 'bg.surface',
    borderWidth: '1px',
    borderColor: 'border',
    borderRadius: 'xl',
    boxShadow: 'card',
    p: { base: '5', md: '6' },
  },
});

const skeleton = defineRecipe({
  className: 'skeleton',
  base: {
    bg: 'slate.200',
    borderRadius: 'md',
    animation: 'pulse 1.5s ease-in-out infinite',
  },
});

const spinner = defineRecipe({
  className: 'spinner',
  base: {
    display: 'inline-block',
    borderRadius: 'full',
    borderStyle: 'solid',
    borderColor: 'currentColor',
    borderRightColor: 'transparent',
    animation: 'spin 0.75s linear infinite',
  },
  variants: {
    size: {
      sm: { w: '4', h: '4', borderWidth: '2px' },
      md: { w: '6', h: '6', borderWidth: '3px' },
      lg: { w: '10', h: '10', borderWidth: '4px' },
    },
  },
  defaultVariants: { size: 'md' },
});

const alert = defineRecipe({
  className: 'alert',
  base: {
    display: 'flex',
    flexDirection: 'column',
    gap: '1',
    p: '4',
    borderRadius: 'lg',
    borderWidth: '1px',
    fontSize: 'sm',
  },
  variants: {
    tone: {
      info: { bg: 'info.bg', color: 'info.fg', borderColor: 'info.border' },
      success: { bg: 'success.bg', color: 'success.fg', borderColor: 'success.border' },
      amber: { bg: 'amber.bg', color: 'amber.fg', borderColor: 'amber.border' },
      destructive: {
        bg: 'destructive.bg',
        color: 'destructive.fg',
        borderColor: 'destructive.border',
      },
    },
  },
  defaultVariants: { tone: 'info' },
});

const field = defineSlotRecipe({
  className: 'field',
  slots: fieldAnatomy.keys(),
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1.5' },
    label: { fontSize: 'sm', fontWeight: 'medium', color: 'fg' },
    helperText: { fontSize: 'sm', color: 'fg.muted' },
    errorText: { fontSize: 'sm', color: 'destructive.fg', fontWeight: 'medium' },
  },
});

const dialog = defineSlotRecipe({
  className: 'dialog',
  slots: dialogAnatomy.keys(),
  base: {
    backdrop: { position: 'fixed', inset: '0', bg: 'rgba(15, 23, 42, 0.55)', zIndex: 'overlay' },
    positioner: {
      position: 'fixed',
      inset: '0',
      display: 'flex',
      alignItems: { base: 'flex-end', sm: 'center' },
      justifyContent: 'center',
      zIndex: 'modal',
      p: { base: '0', sm: '4' },
    },
    content: {
      position: 'relative',
      bg: 'bg.surface',
      w: 'full',
      maxW: 'md',
      maxH: '100dvh',
      overflowY: 'auto',
      borderRadius: { base: 'xl xl 0 0', sm: 'xl' },
      boxShadow: 'overlay',
      p: '6',
      _focusVisible: { outline: 'none' },
    },
    title: { fontSize: 'xl', fontWeight: 'bold', color: 'fg', pr: '8' },
    description: { mt: '1', color: 'fg.muted', fontSize: 'sm' },
    closeTrigger: {
      position: 'absolute',
      top: '3',
      right: '3',
      w: '9',
      h: '9',
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      borderRadius: 'md',
      cursor: 'pointer',
      color: 'fg.muted',
      _hover: { bg: 'bg.subtle' },
    },
  },
});

const tooltip = defineSlotRecipe({
  className: 'tooltip',
  slots: tooltipAnatomy.keys(),
  base: {
    content: {
      bg: 'bg.inverted',
      color: 'fg.inverted',
      px: '2.5',
      py: '1.5',
      borderRadius: 'md',
      fontSize: 'xs',
      maxW: '64',
      boxShadow: 'card',
      zIndex: 'tooltip',
    },
  },
});

const tabs = defineSlotRecipe({
  className: 'tabs',
  slots: tabsAnatomy.keys(),
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '4' },
    list: {
      display: 'flex',
      gap: '1',
      borderBottomWidth: '1px',
      borderColor: 'border',
      overflowX: 'auto',
    },
    trigger: {
      px: '4',
      py: '2.5',
      fontWeight: 'medium',
      color: 'fg.muted',
      cursor: 'pointer',
      whiteSpace: 'nowrap',
      borderBottomWidth: '2px',
      borderColor: 'transparent',
      mb: '-1px',
      _selected: { color: 'primary.text', borderColor: 'primary' },
      _hover: { color: 'fg' },
    },
    content: { _focusVisible: { outline: '2px solid', outlineColor: 'focus' } },
  },
});

export const recipes = { button, input, badge, card, skeleton, spinner, alert };
export const slotRecipes = { field, dialog, tooltip, tabs };
