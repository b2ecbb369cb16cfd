package dev.berth.api;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.List;
import java.util.function.Supplier;

import org.springframework.boot.http.converter.autoconfigure.ServerHttpMessageConvertersCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.GenericHttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.converter.HttpMessageNotWritableException;
import org.springframework.http.converter.yaml.MappingJackson2YamlHttpMessageConverter;
import org.springframework.util.ClassUtils;

/**
 * The API answers {@code Accept: application/yaml} (and reads YAML bodies) through Spring's Jackson 2 YAML converter,
 * which Spring adds because the YAML data format is on the class path (the OpenAPI document's {@code .yaml} form needs
 * it). Built eagerly, that converter creates a Jackson 2 mapper and loads ~530 classes at every start (and into the
 * AOT cache, whose classes all load at JVM start) for a format hardly anyone asks for. Here it is registered in the
 * same place, answering the same media types, and built on the first YAML request or body.
 */
@Configuration(proxyBeanMethods = false)
class YamlOnFirstUse {

    private static final String JACKSON_2_YAML = "com.fasterxml.jackson.dataformat.yaml.YAMLFactory";

    @Bean
    ServerHttpMessageConvertersCustomizer yamlConverterOnFirstUse() {
        return builder -> {
            if (ClassUtils.isPresent(JACKSON_2_YAML, YamlOnFirstUse.class.getClassLoader())) {
                builder.withYamlConverter(new Converter(YamlOnFirstUse::jackson2Yaml));
            }
        };
    }

    @SuppressWarnings("removal") // Spring's Jackson 2 converter, as Spring itself would register it
    private static GenericHttpMessageConverter<Object> jackson2Yaml() {
        return new MappingJackson2YamlHttpMessageConverter();
    }

    /** Answers media-type questions itself; anything that needs the mapper builds the real converter (once). */
    static final class Converter implements GenericHttpMessageConverter<Object> {

        static final List<MediaType> MEDIA_TYPES = List.of(MediaType.APPLICATION_YAML); // as Spring's converter

        private final Supplier<? extends GenericHttpMessageConverter<Object>> factory;
        private volatile GenericHttpMessageConverter<Object> delegate;

        Converter(Supplier<? extends GenericHttpMessageConverter<Object>> factory) {
            this.factory = factory;
        }

        boolean built() {
            return delegate != null;
        }

        private GenericHttpMessageConverter<Object> delegate() {
            GenericHttpMessageConverter<Object> converter = delegate;
            if (converter == null) {
                synchronized (this) {
                    converter = delegate;
                    if (converter == null) {
                        converter = factory.get();
                        delegate = converter;
                    }
                }
            }
            return converter;
        }

        private static boolean yaml(MediaType mediaType) {
            return mediaType != null && MEDIA_TYPES.stream().anyMatch(supported -> supported.isCompatibleWith(mediaType));
        }

        @Override
        public List<MediaType> getSupportedMediaTypes() {
            return MEDIA_TYPES;
        }

        @Override
        public List<MediaType> getSupportedMediaTypes(Class<?> clazz) {
            return MEDIA_TYPES;
        }

        @Override
        public boolean canRead(Class<?> clazz, MediaType mediaType) {
            return canRead(clazz, null, mediaType);
        }

        @Override
        public boolean canRead(Type type, Class<?> contextClass, MediaType mediaType) {
            // a body is read with its Content-Type: only a YAML one needs the converter
            return yaml(mediaType) && delegate().canRead(type, contextClass, mediaType);
        }

        @Override
        public boolean canWrite(Class<?> clazz, MediaType mediaType) {
            return canWrite(clazz, clazz, mediaType);
        }

        @Override
        public boolean canWrite(Type type, Class<?> clazz, MediaType mediaType) {
            if (mediaType == null) {
                // which media types could this value be written in (content negotiation, every response): YAML, as
                // Jackson can serialize any value; the question of a concrete YAML type goes to the real converter
                return true;
            }
            return yaml(mediaType) && delegate().canWrite(type, clazz, mediaType);
        }

        @Override
        public Object read(Class<?> clazz, HttpInputMessage inputMessage) throws IOException, HttpMessageNotReadableException {
            return delegate().read(clazz, clazz, inputMessage);
        }

        @Override
        public Object read(Type type, Class<?> contextClass, HttpInputMessage inputMessage)
                throws IOException, HttpMessageNotReadableException {
            return delegate().read(type, contextClass, inputMessage);
        }

        @Override
        public void write(Object t, MediaType contentType, HttpOutputMessage outputMessage)
                throws IOException, HttpMessageNotWritableException {
            delegate().write(t, t.getClass(), contentType, outputMessage);
        }

        @Override
        public void write(Object t, Type type, MediaType contentType, HttpOutputMessage outputMessage)
                throws IOException, HttpMessageNotWritableException {
            delegate().write(t, type, contentType, outputMessage);
        }
    }
}
