import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { css } from 'styled-system/css';
import { Button } from './button.tsx';

export type DashboardSection = { value: string; label: string };

type DashboardShellProps = {
  /** The person's name as the sidebar shows it ('Dr(a). …' for doctors). */
  person: ReactNode;
  /** The line under the name ('Paciente', 'Painel de Controle'). */
  role: string;
  /** Accessible name of the navigation ('Painel do paciente', 'Painel do médico'). */
  navLabel: string;
  /** Base path; a section lives at `${basePath}/${value}`. */
  basePath: string;
  sections: readonly DashboardSection[];
  current: string;
  /** Links after the sections (e.g. 'Página Inicial'). */
  extraLinks?: readonly { to: string; label: string }[];
  signOutLabel: string;
  onSignOut: () => void;
  children: ReactNode;
};

const linkClass = css({
  display: 'block',
  px: '3',
  py: '2',
  borderRadius: 'md',
  _hover: { bg: 'bg.subtle' },
  '&[aria-current=page]': { bg: 'primary.subtle', color: 'primary.text', fontWeight: 'semibold' },
});

/**
 * The frame both dashboards share: one navigation, never two. On wide screens it is a sidebar
 * beside the section; on phones it folds into a 'Menu' button above it, so the section itself
 * is what fills the first screen.
 */
export function DashboardShell(props: DashboardShellProps) {
  const { person, role, navLabel, sections, current, children } = props;
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const menuId = useId();
  const currentLabel = sections.find((s) => s.value === current)?.label ?? '';

  // A choice in the folded menu navigates; the menu closes behind it.
  useEffect(() => setMenuOpen(false), [location.pathname]);

  return (
    <div
      className={css({
        display: 'grid',
        gap: { base: '4', lg: '6' },
        gridTemplateColumns: { base: 'minmax(0, 1fr)', lg: '240px minmax(0, 1fr)' },
      })}
    >
      <div
        className={css({
          display: 'flex',
          flexDirection: 'column',
          gap: '4',
          p: '4',
          borderWidth: '1px',
          borderColor: 'border',
          borderRadius: 'lg',
          bg: 'bg.surface',
          alignSelf: 'start',
        })}
      >
        <div
          className={css({
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: '3',
          })}
        >
          <div className={css({ minW: '0' })}>
            <p className={css({ fontWeight: 'bold', wordBreak: 'break-word' })}>{person}</p>
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{role}</p>
          </div>
          <Button
            variant="outline"
            size="sm"
            className={css({ lg: { display: 'none' }, flexShrink: 0 })}
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? 'Fechar menu' : `Menu · ${currentLabel}`}
          </Button>
        </div>
        <div
          id={menuId}
          className={css({
            display: menuOpen ? 'flex' : 'none',
            flexDirection: 'column',
            gap: '4',
            lg: { display: 'flex' },
          })}
        >
          <nav aria-label={navLabel}>
            <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
              {sections.map((section) => (
                <li key={section.value}>
                  <Link
                    to={`${props.basePath}/${section.value}`}
                    className={linkClass}
                    aria-current={section.value === current ? 'page' : undefined}
                  >
                    {section.label}
                  </Link>
                </li>
              ))}
              {props.extraLinks?.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className={linkClass}>
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <Button variant="outline" onClick={props.onSignOut}>
            {props.signOutLabel}
          </Button>
        </div>
      </div>
      <section aria-label={currentLabel} className={css({ minW: '0' })}>
        {children}
      </section>
    </div>
  );
}
