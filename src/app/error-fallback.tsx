import { css } from 'styled-system/css';
import { Button, buttonClass } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';

/**
 * The page shown when the app itself failed. Plain links (no router): it also renders when the
 * router or the providers around it are what broke.
 */
export function ErrorFallback() {
  return (
    <main
      className={css({ minH: '100dvh', display: 'grid', placeItems: 'center', p: '4' })}
      id="conteudo"
    >
      <Card className={css({ maxW: 'md', textAlign: 'center' })} role="alert">
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Algo deu errado</h1>
        <p className={css({ mt: '3', color: 'fg.muted' })}>
          Ocorreu um erro inesperado ao exibir esta página. Tente recarregar; se o problema
          continuar, fale com o nosso suporte.
        </p>
        <div
          className={css({
            mt: '6',
            display: 'flex',
            gap: '3',
            justifyContent: 'center',
            flexWrap: 'wrap',
          })}
        >
          <Button onClick={() => window.location.reload()}>Recarregar página</Button>
          <a href="/" className={buttonClass({ variant: 'outline' })}>
            Voltar ao início
          </a>
        </div>
      </Card>
    </main>
  );
}
