import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';
import { css } from 'styled-system/css';
import { Button, buttonClass } from '@/ui/button.tsx';
import { Card } from '@/ui/card.tsx';

/** Last line of defence for render and loading errors anywhere under the layout. */
export function RouteError() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) console.error(error);
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
          <Link to="/" reloadDocument className={buttonClass({ variant: 'outline' })}>
            Voltar ao início
          </Link>
        </div>
      </Card>
    </main>
  );
}
