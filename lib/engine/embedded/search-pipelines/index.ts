export { SearchPipelines } from './search-pipelines.js';
export { compileSearchPipeline, runSearchPipeline, type SearchPipeline, type PipelinedSearch } from './search-pipeline.js';
