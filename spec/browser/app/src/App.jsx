import React from 'react';
import { MultiList, RangeSlider, ReactiveBase, ReactiveList, SearchBox } from '@appbaseio/reactivesearch';

const RESULTS_REACT = { and: ['search', 'category', 'year'] };

/**
 * The page a person would build: a search box with suggestions, a facet, a range, and the results.
 * Filters react one way (search → category → year → results): the gateway refuses react cycles.
 */
export function App({ url, app, credentials }) {
  return (
    <ReactiveBase url={url} app={app} credentials={credentials} theme={{ typography: { fontFamily: 'sans-serif' } }}>
      <header style={{ padding: '12px 16px' }}>
        <h1 style={{ fontSize: 20, margin: '0 0 8px' }}>Books</h1>
        <SearchBox
          componentId="search"
          dataField={['title', 'author']}
          placeholder="Search books"
          autosuggest
          size={5}
          debounce={100}
          innerClass={{ input: 'search-input', list: 'search-suggestions' }}
          renderNoSuggestion="No suggestions"
        />
      </header>
      <main style={{ display: 'flex', gap: 24, padding: '0 16px' }}>
        <aside style={{ width: 260 }} data-testid="filters">
          <MultiList
            componentId="category"
            dataField="category"
            title="Category"
            showSearch={false}
            react={{ and: ['search'] }}
            innerClass={{ list: 'category-list' }}
          />
          <RangeSlider
            componentId="year"
            dataField="year"
            title="Year"
            range={{ start: 1950, end: 2030 }}
            rangeLabels={{ start: '1950', end: '2030' }}
            react={{ and: ['search', 'category'] }}
            stepValue={10}
            showHistogram={false}
          />
        </aside>
        <section style={{ flex: 1 }} data-testid="results">
          <ReactiveList
            componentId="results"
            dataField="title"
            size={30}
            pagination={false}
            react={RESULTS_REACT}
            renderResultStats={({ numberOfResults }) => <p data-testid="result-stats">{numberOfResults} results</p>}
            renderNoResults={() => <p data-testid="no-results">No books found</p>}
            renderItem={(hit) => (
              <article key={hit._id} data-testid="hit" data-id={hit._id} className="hit" style={{ padding: '4px 0', borderBottom: '1px solid #eee' }}>
                <strong className="hit-title">{hit.title}</strong>{' '}
                <span className="hit-meta">
                  · <span className="hit-category">{hit.category}</span> · <span className="hit-year">{hit.year}</span>
                </span>
              </article>
            )}
          />
        </section>
      </main>
    </ReactiveBase>
  );
}
