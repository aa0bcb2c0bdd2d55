/** Says plainly when the host is unreachable, when it will retry, and offers to retry now. */
import { useEffect, useState } from 'react';
import { getTransport } from '../../api/client.js';
import { useApp } from '../../store/app-store.js';
import { uiSelectors } from '../../store/selectors.js';
import { IconAlert } from './icons.js';

export function ConnectionBanner() {
  const conn = useApp(uiSelectors.connection);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (conn.status !== 'closed') return;
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, [conn]);

  if (conn.status === 'open' || (conn.status === 'connecting' && conn.attempt <= 1)) return null;
  if (conn.status === 'unauthorized') return null; // The whole window shows this state (app.tsx).
  const seconds = conn.status === 'closed' ? Math.max(0, Math.ceil((conn.retryAt - now) / 1000)) : 0;
  return (
    <div className="banner banner-err" role="alert" data-testid="connection-banner">
      <IconAlert />
      <span>
        <strong>Disconnected from the Parallax host.</strong>{' '}
        {conn.status === 'closed' ? `${conn.reason} Reconnecting in ${seconds} s…` : 'Reconnecting…'} Live runs keep
        going on the host; their steps reappear when the connection is back.
      </span>
      {conn.status === 'closed' ? (
        <button className="btn btn-sm" onClick={() => getTransport().retryNow()}>
          Retry now
        </button>
      ) : null}
    </div>
  );
}
