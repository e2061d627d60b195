import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { createApi, typedApi, type Api } from './api';
import { Show } from './components/section';
import { SelfContext } from './may';
import { PAGES, pageFor } from './pages';
import { forgetToken, keepToken, savedToken } from './session';
import { SignIn } from './sign-in';
import { useLoad } from './use-load';

/** The page named by the location's hash (`#/audit`); hash routes keep every page at `/`. */
function useHashPage() {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return pageFor(hash);
}

export function App() {
  const [token, setToken] = useState(savedToken);
  if (token === null) {
    return (
      <SignIn
        onSignedIn={(signedIn) => {
          keepToken(signedIn);
          setToken(signedIn);
        }}
      />
    );
  }
  return (
    <Shell
      token={token}
      onSignOut={() => {
        forgetToken();
        setToken(null);
      }}
    />
  );
}

function Shell({ token, onSignOut }: { token: string; onSignOut: () => void }) {
  const api: Api = useMemo(() => typedApi(createApi(token)), [token]);
  const page = useHashPage();
  // What the token may do decides which actions the pages show.
  const self = useLoad(() => api.call('GET', '/api/v1/tokens/self'), token);
  const heading = useRef<HTMLHeadingElement>(null);
  // Keyboard and screen-reader users land on the new page's heading, not on the link they left.
  useEffect(() => heading.current?.focus(), [page]);
  const Page = page.component;
  return (
    <>
      <a class="skip" href="#main" onClick={(event) => (event.preventDefault(), heading.current?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">LPA console</span>
        <nav aria-label="Pages">
          <ul>
            {PAGES.map((each) => (
              <li key={each.slug}>
                <a href={`#/${each.slug}`} aria-current={each === page ? 'page' : undefined}>
                  {each.name}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {self.data && (
          <span class="muted" data-signed-in-as>
            {self.data.name}
            {self.data.admin && ' (admin)'}
          </span>
        )}
        <button type="button" class="quiet" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main">
        <h1 tabIndex={-1} ref={heading}>
          {page.name}
        </h1>
        <Show loaded={self} label="the token's scopes">
          {(known) => (
            <SelfContext.Provider value={known}>
              <Page api={api} />
            </SelfContext.Provider>
          )}
        </Show>
      </main>
    </>
  );
}
