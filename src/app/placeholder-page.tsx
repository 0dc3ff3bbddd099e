import { css } from 'styled-system/css';
import { Container } from '@/ui/container.tsx';

/** Stands in for a screen another part of the product delivers; keeps its route reachable. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <Container className={css({ py: '16' })}>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{title}</h1>
      <p className={css({ mt: '2', color: 'fg.muted' })}>Esta tela está sendo preparada.</p>
    </Container>
  );
}
