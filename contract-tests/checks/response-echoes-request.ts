/**
 * response_echoes_request: the Plant created names the very name and tag that were sent,
 * character for character. A tag that was not sent but comes back is a warning only.
 */
import type { Check } from '../model.js';
import { createPlantContract, parseBody } from '../spec-contract.js';
import { answered, failure, warning } from './verdicts.js';

export const responseEchoesRequest: Check = {
  name: 'response_echoes_request',
  proves: 'the Plant answered names exactly the name and tag that were sent',
  judge(exchange) {
    const response = answered(exchange);
    const sent = exchange.case.request.plant;
    if (!response || response.status !== 200 || !sent) return undefined;
    const parsed = parseBody(response.body);
    const validate = createPlantContract().responses.get(200)?.validate;
    // A body that is no Plant is response_schema_conformance's to report.
    if (!parsed.ok || !validate?.(parsed.value)) return undefined;
    const plant = parsed.value as { name: string; tag?: string };
    const problems = [];
    if (plant.name !== sent.name) {
      problems.push(failure(`The Plant names ${JSON.stringify(plant.name)}, but the request sent name ${JSON.stringify(sent.name)}.`));
    }
    if (sent.tag !== undefined && plant.tag !== sent.tag) {
      problems.push(
        failure(
          plant.tag === undefined
            ? `The Plant has no tag, but the request sent tag ${JSON.stringify(sent.tag)}.`
            : `The Plant's tag is ${JSON.stringify(plant.tag)}, but the request sent tag ${JSON.stringify(sent.tag)}.`,
        ),
      );
    }
    if (sent.tag === undefined && plant.tag !== undefined) {
      problems.push(warning(`The Plant has tag ${JSON.stringify(plant.tag)}, but the request sent no tag.`));
    }
    return problems;
  },
};
