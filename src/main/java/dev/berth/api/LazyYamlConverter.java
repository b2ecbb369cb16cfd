package dev.berth.api;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.List;
import java.util.function.Supplier;

import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.GenericHttpMessageConverter;
import org.springframework.http.converter.yaml.MappingJackson2YamlHttpMessageConverter;

/**
 * The {@code application/yaml} converter Spring MVC registers by default (Jackson 2's, present because swagger-core
 * brings {@code jackson-dataformat-yaml}), created on the first request that reads or asks for YAML instead of at
 * start: until then no Jackson 2 class is loaded. Answers as that converter does without it: YAML is its only media
 * type, it writes and reads any type when no media type is given, and declines every other media type; anything else
 * goes to the real converter.
 */
final class LazyYamlConverter implements GenericHttpMessageConverter<Object> {

    private static final List<MediaType> YAML = List.of(MediaType.APPLICATION_YAML);

    private final Supplier<GenericHttpMessageConverter<Object>> factory;
    private volatile GenericHttpMessageConverter<Object> delegate;

    LazyYamlConverter(Supplier<GenericHttpMessageConverter<Object>> factory) {
        this.factory = factory;
    }

    /** Spring's default YAML converter (Jackson 2), created when first needed. */
    @SuppressWarnings({"deprecation", "removal"})
    static LazyYamlConverter jackson2() {
        return new LazyYamlConverter(() -> new MappingJackson2YamlHttpMessageConverter());
    }

    /** Whether the converter is created (a request read or asked for YAML). */
    boolean created() {
        return delegate != null;
    }

    private GenericHttpMessageConverter<Object> converter() {
        GenericHttpMessageConverter<Object> current = delegate;
        if (current == null) {
            synchronized (this) {
                current = delegate;
                if (current == null) {
                    current = factory.get();
                    delegate = current;
                }
            }
        }
        return current;
    }

    /** A media type the real converter would consider (YAML, or any): only then is it needed to answer. */
    private static boolean concerns(MediaType mediaType) {
        return MediaType.ALL.equalsTypeAndSubtype(mediaType) || MediaType.APPLICATION_YAML.isCompatibleWith(mediaType);
    }

    @Override
    public boolean canRead(Class<?> clazz, MediaType mediaType) {
        return mediaType == null || concerns(mediaType) && converter().canRead(clazz, mediaType);
    }

    @Override
    public boolean canWrite(Class<?> clazz, MediaType mediaType) {
        return mediaType == null || concerns(mediaType) && converter().canWrite(clazz, mediaType);
    }

    @Override
    public boolean canRead(Type type, Class<?> contextClass, MediaType mediaType) {
        return mediaType == null || concerns(mediaType) && converter().canRead(type, contextClass, mediaType);
    }

    @Override
    public boolean canWrite(Type type, Class<?> clazz, MediaType mediaType) {
        return mediaType == null || concerns(mediaType) && converter().canWrite(type, clazz, mediaType);
    }

    @Override
    public List<MediaType> getSupportedMediaTypes() {
        return YAML;
    }

    @Override
    public List<MediaType> getSupportedMediaTypes(Class<?> clazz) {
        return YAML;
    }

    @Override
    public Object read(Class<?> clazz, HttpInputMessage inputMessage) throws IOException {
        return converter().read(clazz, inputMessage);
    }

    @Override
    public Object read(Type type, Class<?> contextClass, HttpInputMessage inputMessage) throws IOException {
        return converter().read(type, contextClass, inputMessage);
    }

    @Override
    public void write(Object t, MediaType contentType, HttpOutputMessage outputMessage) throws IOException {
        converter().write(t, contentType, outputMessage);
    }

    @Override
    public void write(Object t, Type type, MediaType contentType, HttpOutputMessage outputMessage)
            throws IOException {
        converter().write(t, type, contentType, outputMessage);
    }
}
