package dev.berth.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns {@link InsecureConfigurationException} into Boot's "APPLICATION FAILED TO START" report. */
class InsecureConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<InsecureConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InsecureConfigurationException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
