package dev.berth.ui;

import java.util.concurrent.TimeUnit;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.CacheControl;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Serves the web UI at {@code /ui/}: static pages, scripts and styles from {@code classpath:/ui/} and the uPlot chart
 * library from its WebJar, all out of the agent's own jar (nothing is fetched from the internet). The pages hold no
 * data: their scripts call the agent's {@code /v1} API with the token the person typed in, so the ACL filter decides
 * what they may see and do exactly as for any other client.
 *
 * <p>Routes: {@code /ui/} is the node page, {@code /ui/allocations/{id}} an allocation, {@code /ui/jobs} the jobs and
 * {@code /ui/jobs/{id}} a job (one page each, whose script reads the id from the address). Anything else under {@code /ui/} that is not a file is a 404.
 */
@Configuration(proxyBeanMethods = false)
class WebUiConfiguration implements WebMvcConfigurer {

    /** uPlot's version, kept in step with the {@code uplot.version} property of the build (a test checks the jar has it). */
    static final String UPLOT_VERSION = "1.6.30";

    @Override
    public void addViewControllers(ViewControllerRegistry registry) {
        registry.addRedirectViewController("/ui", "/ui/");
        registry.addViewController("/ui/").setViewName("forward:/ui/index.html");
        registry.addViewController("/ui/allocations/{id}").setViewName("forward:/ui/allocation.html");
        registry.addViewController("/ui/jobs").setViewName("forward:/ui/jobs.html");
        registry.addViewController("/ui/jobs/{id}").setViewName("forward:/ui/job.html");
    }

    @Override
    public void addResourceHandlers(ResourceHandlerRegistry registry) {
        registry.addResourceHandler("/ui/vendor/uplot/**")
                .addResourceLocations("classpath:/META-INF/resources/webjars/uplot/" + UPLOT_VERSION + "/dist/")
                .setCacheControl(CacheControl.maxAge(1, TimeUnit.DAYS));
        // Our own files change with every release; the browser revalidates them (cheap: Last-Modified / 304).
        registry.addResourceHandler("/ui/**").addResourceLocations("classpath:/ui/").setCacheControl(CacheControl.noCache());
    }
}
