/** What search_tools found for a query: ranked tool names with their scores and signatures. */
import type { ToolSearchEvent } from '../../../shared/step-event.js';
import { IconSearch } from '../common/icons.js';

export function SearchHits({ search }: { search: ToolSearchEvent }) {
  return (
    <div className="search-hits" data-testid="search-hits">
      <div className="sub-head">
        <IconSearch size={13} />
        <span>
          search_tools(<span className="mono">{JSON.stringify(search.query)}</span>)
        </span>
        <span className="muted">{search.hits.length === 1 ? '1 hit' : `${search.hits.length} hits`}</span>
      </div>
      {search.hits.length === 0 ? (
        <p className="muted small">No tool matched this query.</p>
      ) : (
        <table className="mini-table">
          <thead>
            <tr>
              <th>Tool</th>
              <th className="num">Score</th>
              <th>Signature</th>
            </tr>
          </thead>
          <tbody>
            {search.hits.map((h) => (
              <tr key={h.name}>
                <td className="mono">{h.name}</td>
                <td className="num mono" data-score={h.score}>
                  {h.score.toFixed(2)}
                </td>
                <td className="mono sig" title={h.signature}>
                  {h.signature}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
