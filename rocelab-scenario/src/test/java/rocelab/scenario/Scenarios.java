package rocelab.scenario;

import java.nio.file.Path;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/** Test helper: builds scenarios from inline YAML. */
final class Scenarios {
    private Scenarios() {}

    static ScenarioConfig parse(String yaml) {
        try {
            return new ScenarioReader().read(yaml, "test.yaml", Path.of("."));
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    static Simulation assemble(String yaml) {
        return Simulation.assemble(parse(yaml));
    }
}
