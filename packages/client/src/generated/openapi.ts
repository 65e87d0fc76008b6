/**
 * Generated from kmem's OpenAPI document by `npm run client:types`: do not edit by hand.
 * A test (test/api/client-types.test.ts) fails when the served document no longer matches this file.
 */
/* eslint-disable */

export interface paths {
    "/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The calling account: its name and token budget (total, remaining, used) */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a file from an upload key or a web address; processing starts at once */
        post: operations["createFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a file that no memory uses, with its raw and derived objects */
        delete: operations["deleteFile"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/get/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a file with its extracted text and processing state */
        get: operations["getFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import many files at once from an uploaded archive (.zip, .tar, .tar.gz) or an S3 prefix; answers the import id */
        post: operations["postFilesImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/import/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Progress of an import: counts of created, updated, unchanged, deleted and failed members, first errors */
        get: operations["getFilesImportId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List files, oldest first, optionally by category */
        get: operations["listFiles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/metadata/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace a file's metadata; nothing is processed or ingested again, and searches filter by the new metadata from the next query on */
        post: operations["setFileMetadata"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/resync/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fetch a website, sitemap or website_bulk file again: unchanged pages cost nothing, changed ones update, new ones are added, vanished ones removed */
        post: operations["postFilesResyncId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload raw bytes (multipart form, one part named `file`); answers the key files/create takes */
        post: operations["uploadFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/upload-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Get a presigned address to PUT the bytes to directly (for large files), with the key for files/create */
        post: operations["createUploadUrl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health: 200 once the stores are reachable */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/add-files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add files to a memory (memories created on or after 17-Dec-2024); `links` has one link per file */
        post: operations["addMemoryFiles"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/add-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Attach sessions: their messages, past and future, become part of the memory */
        post: operations["addMemorySessions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a graph or vector memory */
        post: operations["createMemory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/delete-file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a file from a memory, with everything it contributed */
        delete: operations["removeMemoryFile"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a memory and everything derived from it (its files stay) */
        delete: operations["deleteMemory"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/entities/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A graph memory's entities matching a name, best first, with their relations, facts and passages */
        get: operations["findMemoryEntities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/export/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An export's state and, once completed, a time-limited address of its archive */
        get: operations["getMemoryExport"];
        put?: never;
        /** Start writing the memory (settings, files with their text, sessions, messages, chunks, vectors, graph) into one archive */
        post: operations["exportMemory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/get/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a memory with its ingestion step and counts */
        get: operations["getMemory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/graph/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A graph memory's knowledge graph: a page of nodes with the edges that start at them */
        get: operations["getMemoryGraph"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List memories, oldest first, optionally by memoryType */
        get: operations["listMemories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/profile/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a graph memory holding a customer user's sessions knows of them: preferences and facts, current first */
        get: operations["getMemoryProfile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/remove-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Detach sessions and remove what they contributed */
        post: operations["removeMemorySessions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a new memory from an export archive; the memory's step shows progress to ready (a restore charges no tokens) */
        post: operations["restoreMemory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/start-ingestion": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start ingesting the files added to a memory; reserves the token budget */
        post: operations["startIngestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Query a memory: the best passages, optionally three supporting facts, and their sources */
        get: operations["searchMemory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a message to a session */
        post: operations["createMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a message */
        delete: operations["deleteMessage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/get/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one message with its whole content (lists cut long contents) */
        get: operations["getMessagesGetId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List messages, oldest first, filtered by session, customer and role */
        get: operations["listMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search messages (best first), optionally within a session, customer, role and time window */
        get: operations["searchMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a conversation session (id = sessionID, generated when absent) */
        post: operations["createSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Soft-delete a session: sets deletedAt and keeps the record */
        delete: operations["deleteSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/end/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End a session: sets endedAt (the first end wins) */
        post: operations["endSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/get/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a session; soft-deleted sessions are returned with deletedAt set */
        get: operations["getSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/summary/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A session's summary and key points, kept current as messages arrive (extractive; by the answer model when one is configured) */
        get: operations["getSessionSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a user owned by the calling account */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a user */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/get/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one user */
        get: operations["getUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List users, oldest first */
        get: operations["listUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        CreatedFile: {
            bronzeKey: string | null;
            category: string;
            /** Format: date-time */
            createdAt: string;
            error: string | null;
            extension: string;
            externalURI: string | null;
            /** @enum {string} */
            fileType: "website" | "sitemap" | "website_bulk" | "document" | "text" | "image" | "audio" | "video" | "other";
            id: string;
            name: string;
            numSpeakers: number | null;
            organisationID: string;
            originRegion: string;
            /** @enum {string} */
            state: "pending" | "processing" | "ready" | "failed";
            /** Format: date-time */
            updatedAt: string;
        };
        CreatedMemory: {
            acceleration: boolean;
            adapterRepo: string;
            adapterVersion: number;
            chunkOverlap: number | null;
            chunkSize: number | null;
            /** Format: date-time */
            createdAt: string;
            description: string;
            factExtraction: boolean;
            graphDBName: string;
            id: string;
            /** @enum {string} */
            memoryType: "graph" | "vector";
            name: string;
            step: string;
            /** Format: date-time */
            updatedAt: string;
            userID: string;
            vectorDBCollection: string;
        };
        /**
         * @description Give `key` (from files/upload or files/upload-url) for uploaded bytes, or `external_uri` for a web address; `website`, `sitemap` and `website_bulk` files take `external_uri` only.
         * @example {
         *       "name": "handbook.pdf",
         *       "key": "uploads/5b0c.../handbook.pdf",
         *       "fileType": "pdf"
         *     }
         */
        CreateFileRequest: {
            external_uri?: string;
            /** @enum {string} */
            fileType: "website" | "sitemap" | "website_bulk" | "document" | "text" | "image" | "audio" | "video" | "other";
            id?: string;
            key?: string;
            /** @description At most 32 `{key, value}` pairs; search filters match them (`filter.metadata`) */
            metadata?: {
                key: string;
                value: string;
            }[];
            name: string;
            sourceKey?: string;
        };
        /**
         * @description A graph memory needs `ontology` and takes no `chunkSize`/`chunkOverlap`; a vector memory takes no `ontology`.
         * @example {
         *       "name": "support knowledge",
         *       "memoryType": "graph",
         *       "ontology": "support_requests",
         *       "factExtraction": true
         *     }
         */
        CreateMemoryRequest: {
            /** @description Build an approximate nearest-neighbour index (faster search on large memories) */
            acceleration?: boolean;
            /** @description Overlap between chunks in percent, vector memories only */
            chunkOverlap?: number;
            /** @description Characters per chunk, vector memories only (graph memories chunk by their own rules) */
            chunkSize?: number;
            description?: string;
            /** @description Graph memories: keep each relation's source sentence as a fact */
            factExtraction?: boolean;
            /** @enum {string} */
            memoryType: "graph" | "vector";
            name: string;
            /**
             * @description Required when memoryType is graph (the entity and relation types to extract); refused for a vector memory
             * @enum {string}
             */
            ontology?: "culture" | "essays" | "support_requests";
            /**
             * Format: uri
             * @description Receives signed memory.ingestion.* and file.* events
             */
            webhookUrl?: string;
        };
        /**
         * @example {
         *       "sessionID": "support-chat-42",
         *       "role": "user",
         *       "content": "My order 1234 arrived damaged."
         *     }
         */
        CreateMessageRequest: {
            content: string;
            /**
             * Format: date-time
             * @description Original time of an imported message (ISO 8601 with offset); now when absent
             */
            createdAt?: string;
            customerUserID?: string;
            id?: string;
            /** @enum {string} */
            role: "norole" | "system" | "assistant" | "user" | "function" | "tool";
            sessionID: string;
        };
        /**
         * @example {
         *       "sessionID": "support-chat-42",
         *       "customerUserID": "customer-7",
         *       "metadata": [
         *         {
         *           "key": "channel",
         *           "value": "web"
         *         }
         *       ]
         *     }
         */
        CreateSessionRequest: {
            customerUserID?: string;
            metadata?: {
                key: string;
                value: string;
            }[];
            sessionID?: string;
        };
        /**
         * @example {
         *       "firstName": "Ada",
         *       "lastName": "Lovelace",
         *       "email": "ada@example.com"
         *     }
         */
        CreateUserRequest: {
            /** Format: email */
            email: string;
            firstName?: string;
            lastName?: string;
            phone?: string;
        };
        DatedFact: {
            content: string;
            /** @description The message (or file) that stated it */
            sourceID: string | null;
            /** @description When its source stated it: the message's time, else the file's */
            validFrom: string | null;
            /** @description When a later source replaced it; null while it holds */
            validTo: string | null;
        };
        /** @description An entity of a graph memory: its aliases, relations and facts (latest first, with validity, including what is no longer true) and the passages that mention it most */
        Entity: {
            aliases: string[];
            facts: components["schemas"]["DatedFact"][];
            id: string;
            name: string;
            passages: {
                content: string;
                fileID: string;
            }[];
            relations: {
                /** @enum {string} */
                direction: "outgoing" | "incoming";
                relation: string;
                target: {
                    id: string;
                    name: string;
                };
                /** @description When it was first stated (null: not known, as for a co-occurrence) */
                validFrom: string | null;
                /** @description When a later statement replaced it; null while it holds */
                validTo: string | null;
            }[];
            type: string;
        };
        /** @description `status` is bad_request, unauthorized, forbidden, not_found, rate_limited, error or internal server error; `error` names the field and the problem */
        Error: {
            data?: {
                [key: string]: unknown;
            };
            error: string;
            status: string;
        };
        Fact: {
            content: string;
            /** @description The message (or file) that stated it */
            sourceID: string | null;
            /** @description When its source stated it: the message's time, else the file's */
            validFrom: string | null;
            /** @description When a later source replaced it; null while it holds */
            validTo: string | null;
        };
        /** @description A file with its processing state (pending, processing, ready, failed) and extracted text */
        File: {
            aiKey: string | null;
            botID: string | null;
            bronzeKey: string | null;
            category: string;
            content: string | null;
            contentTruncated: boolean;
            contentUrl: string | null;
            /** Format: date-time */
            createdAt: string;
            error: string | null;
            extension: string;
            externalURI: string | null;
            /** @enum {string} */
            fileType: "website" | "sitemap" | "website_bulk" | "document" | "text" | "image" | "audio" | "video" | "other";
            goldAudioKey: string | null;
            goldChunkKey: string | null;
            goldGraphKey: string | null;
            hiddenFilesCreated: number;
            hiddenFilesIngested: number;
            hiddenFilesProcessed: number;
            hiddenFilesTotal: number;
            id: string;
            jobID: string | null;
            length: number | null;
            memoryID: string | null;
            metadata: {
                key: string;
                value: string;
            }[];
            name: string;
            numSpeakers: number | null;
            originRegion: string;
            silverAudioKey: string | null;
            silverTranscriptKey: string | null;
            size: number | null;
            source: string;
            sourceKey: string | null;
            /** @enum {string} */
            state: "pending" | "processing" | "ready" | "failed";
            tokens: number | null;
            /** Format: date-time */
            updatedAt: string;
            userID: string;
        };
        FileMetadataRequest: {
            /** @description At most 32 `{key, value}` pairs; search filters match them (`filter.metadata`) */
            metadata: {
                key: string;
                value: string;
            }[];
        };
        FileSummary: {
            bronzeKey: string | null;
            category: string;
            /** Format: date-time */
            createdAt: string;
            error: string | null;
            extension: string;
            /** @enum {string} */
            fileType: "website" | "sitemap" | "website_bulk" | "document" | "text" | "image" | "audio" | "video" | "other";
            id: string;
            length: number | null;
            metadata: {
                key: string;
                value: string;
            }[];
            name: string;
            numSpeakers: number | null;
            size: number | null;
            /** @enum {string} */
            state: "pending" | "processing" | "ready" | "failed";
            tokens: number | null;
            /** Format: date-time */
            updatedAt: string;
            userID: string;
        };
        GraphEdge: {
            id: string;
            kind: string;
            predicate: string;
            source: string;
            support: number;
            target: string;
            validFrom?: string;
            validTo?: string | null;
            weight: number;
        };
        GraphNode: {
            aliases: string[];
            id: string;
            mentions: number;
            name: string;
            support: number;
            type: string;
        };
        /** @description A memory with its ingestion step (select, queued, ingesting, ready, failed) and counts */
        Memory: {
            acceleration: boolean;
            chunkCount: number;
            chunkOverlap: number | null;
            chunkSize: number | null;
            /** Format: date-time */
            createdAt: string;
            description: string;
            entityCount: number;
            factCount: number;
            factExtraction: boolean;
            failedFileCount: number;
            failedFiles: {
                error: string;
                fileID: string;
            }[];
            fileCount: number;
            id: string;
            indexVersion: number;
            lastError: string | null;
            /** @enum {string} */
            memoryType: "graph" | "vector";
            name: string;
            organizationID: string;
            relationCount: number;
            step: string;
            /** Format: date-time */
            updatedAt: string;
            webhookDelivery: {
                /** Format: date-time */
                at: string;
                attempts: number;
                deadEvents: number;
                eventId: string;
                eventType: string;
                lastError: string | null;
                lastStatus: number | null;
                /** @enum {string} */
                outcome: "delivered" | "retrying" | "dead";
            } | null;
        };
        MemoryExport: {
            /** Format: date-time */
            createdAt: string;
            error: string | null;
            exportID: string;
            memoryID: string;
            /** @description Bytes of the archive once completed */
            size: number | null;
            /** @enum {string} */
            state: "running" | "completed" | "failed";
            /** Format: date-time */
            updatedAt: string;
            /** @description A time-limited (1 hour) address of the archive once completed */
            url: string | null;
        };
        MemoryFileLink: {
            /** Format: date-time */
            createdAt: string;
            fileID: string;
            id: string;
            memoryID: string;
            type: string;
            /** Format: date-time */
            updatedAt: string;
            userID: string;
        };
        MemorySummary: {
            acceleration: boolean;
            chunkOverlap: number | null;
            chunkSize: number | null;
            /** Format: date-time */
            createdAt: string;
            description: string;
            factExtraction: boolean;
            id: string;
            /** @enum {string} */
            memoryType: "graph" | "vector";
            name: string;
            step: string;
            /** Format: date-time */
            updatedAt: string;
            userID: string;
        };
        Message: {
            content: string;
            /** Format: date-time */
            createdAt: string;
            customerUserID: string | null;
            id: string;
            /** @enum {string} */
            role: "norole" | "system" | "assistant" | "user" | "function" | "tool";
            sessionID: string;
            /** Format: date-time */
            updatedAt: string;
            userID: string;
        };
        MessageHit: {
            content: string;
            contentTruncated: boolean;
            /** Format: date-time */
            createdAt: string;
            customerUserID: string | null;
            id: string;
            /** @enum {string} */
            role: "norole" | "system" | "assistant" | "user" | "function" | "tool";
            score: number;
            sessionID: string;
            /** Format: date-time */
            updatedAt: string;
            userID: string;
        };
        Passage: {
            content: string;
            score: number;
            /** @description The id of the entry of `sources` this passage comes from (absent on a generated answer) */
            sourceID?: string;
        };
        ProfileEntry: {
            /** @description The sentence that said it */
            content: string;
            /** @description The message that said it */
            sourceID: string;
            validFrom: string;
            validTo: string | null;
        };
        RestoreMemoryRequest: {
            /** @description A key from POST /files/upload or /files/upload-url holding an export archive (from any account or deployment) */
            archiveKey: string;
            /** @description The new memory's name (default: the exported memory's) */
            name?: string;
        };
        /** @description Errors of GET /memory keep the `{detail}` body */
        RetrievalError: {
            detail: string;
        };
        SearchResult: {
            facts: components["schemas"]["Fact"][];
            payload: components["schemas"]["Passage"][];
            /** @description Present when the service has a reranker configured: true when it ordered the passages; false when it did not (it failed, or nothing matched), the fused order then stands */
            reranked?: boolean;
            sources: components["schemas"]["Source"][];
            /** @enum {string} */
            status: "success";
        };
        Session: {
            /** Format: date-time */
            createdAt: string;
            customerUserID: string | null;
            /** Format: date-time */
            deletedAt: string | null;
            /** Format: date-time */
            endedAt: string | null;
            id: string;
            metadata: {
                key: string;
                value: string;
            }[];
            /** Format: date-time */
            updatedAt: string;
            userID: string;
        };
        /**
         * @example {
         *       "sessionID": "support-chat-42",
         *       "summary": "The customer wants to move the Lisbon booking to June. The hotel in the old town has rooms then.",
         *       "keyPoints": [
         *         "Booking moved to June",
         *         "Hotel in the old town has rooms"
         *       ],
         *       "messageCount": 12,
         *       "updatedAt": "2026-05-03T10:15:00.000Z"
         *     }
         */
        SessionSummary: {
            /** @description Up to five short points: the topics the session covered */
            keyPoints: string[];
            /** @description Messages the summary covers */
            messageCount: number;
            sessionID: string;
            /** @description The session in a few sentences (empty before its first message is summarised) */
            summary: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /** @description A file (or session) behind the passages, best first, with an address to fetch it */
        Source: {
            id: string;
            name: string;
            score: number;
            url: string;
        };
        Upload: {
            contentType: string;
            key: string;
            name: string;
            size: number;
        };
        UploadUrl: {
            contentType: string;
            /** Format: date-time */
            expiresAt: string;
            key: string;
            name: string;
            size: number;
            uploadUrl: string;
        };
        User: {
            /** Format: date-time */
            createdAt: string;
            email: string;
            firstName: string | null;
            id: string;
            lastName: string | null;
            owner: string;
            phone: string | null;
            /** Format: date-time */
            updatedAt: string;
        };
        UserProfile: {
            customerUserID: string;
            facts: components["schemas"]["ProfileEntry"][];
            preferences: components["schemas"]["ProfileEntry"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            createdAt: string;
                            id: string;
                            name: string;
                            tokensRemaining: number;
                            tokensUsed: number;
                            totalTokenLimit: number;
                        };
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createFile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateFileRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CreatedFile"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["File"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postFilesImport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    archiveKey?: string;
                    /** @enum {string} */
                    fileType?: "website" | "sitemap" | "website_bulk" | "document" | "text" | "image" | "audio" | "video" | "other";
                    /** Format: uuid */
                    memoryID?: string;
                    /** @description At most 32 `{key, value}` pairs; search filters match them (`filter.metadata`) */
                    metadata?: {
                        key: string;
                        value: string;
                    }[];
                    prune?: boolean;
                    s3?: {
                        bucket: string;
                        /** @default  */
                        prefix?: string;
                    };
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            importID: string;
                        };
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFilesImportId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            created: number;
                            /** Format: date-time */
                            createdAt: string;
                            deleted: number;
                            errors: {
                                error: string;
                                sourceKey: string;
                            }[];
                            failed: number;
                            importID: string;
                            memoryID: string | null;
                            /** @enum {string} */
                            state: "running" | "completed" | "failed";
                            total: number;
                            unchanged: number;
                            updated: number;
                            /** Format: date-time */
                            updatedAt: string;
                        };
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listFiles: {
        parameters: {
            query?: {
                category?: "audio" | "video" | "web" | "document" | "other" | "all";
                limit?: number;
                nextToken?: string;
                previousToken?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        files: components["schemas"]["FileSummary"][];
                        nextToken: string | null;
                        previousToken: string | null;
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setFileMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FileMetadataRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FileSummary"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postFilesResyncId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CreatedFile"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    uploadFile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The bytes, with the file name in the part's content-disposition
                     */
                    file: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Upload"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createUploadUrl: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    contentType?: string;
                    name: string;
                    size: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["UploadUrl"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addMemoryFiles: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    files: string[];
                    /** Format: uuid */
                    memoryID: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["MemoryFileLink"];
                        links: components["schemas"]["MemoryFileLink"][];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addMemorySessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    memoryID: string;
                    sessions: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            createdAt: string;
                            memoryID: string;
                            sessionID: string;
                        }[];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createMemory: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMemoryRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CreatedMemory"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeMemoryFile: {
        parameters: {
            query: {
                fileID: string;
                memoryID: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    findMemoryEntities: {
        parameters: {
            query: {
                limit?: number;
                name: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        entities: components["schemas"]["Entity"][];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemoryExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["MemoryExport"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            exportID: string;
                        };
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Memory"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemoryGraph: {
        parameters: {
            query?: {
                limit?: number;
                nextToken?: string;
                previousToken?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        edges: components["schemas"]["GraphEdge"][];
                        nextToken: string | null;
                        nodes: components["schemas"]["GraphNode"][];
                        previousToken: string | null;
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMemories: {
        parameters: {
            query?: {
                limit?: number;
                memoryType?: "graph" | "vector";
                nextToken?: string;
                previousToken?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        memories: components["schemas"]["MemorySummary"][];
                        nextToken: string | null;
                        previousToken: string | null;
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemoryProfile: {
        parameters: {
            query: {
                /** @description The profile as it stood at this instant (ISO 8601; default now) */
                asOf?: string;
                /** @description The customer user, as their sessions' and messages' customerUserID */
                customerUserID: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["UserProfile"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeMemorySessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    memoryID: string;
                    sessions: string[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restoreMemory: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RestoreMemoryRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            memoryID: string;
                        };
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startIngestion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    memoryID: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            jobID: string;
                            sampleCount: number;
                            tokenMetrics: {
                                tokensForIngestion: number;
                                tokensRemaining: number;
                                totalTokenLimit: number;
                            };
                        };
                        message: string;
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    searchMemory: {
        parameters: {
            query: {
                after?: string;
                /** @description Facts as they stood at this instant (ISO 8601; default now) */
                asOf?: string;
                assisted?: boolean;
                before?: string;
                facts?: boolean;
                /** @description A JSON object (URL-encoded) whose conditions all hold for every result: fileIDs, fileTypes, sessionIDs, customerUserIDs, roles (arrays: any of), sourceKeyPrefix (string), metadata (object: each key equals the string, or one of the array of strings) */
                filter?: string;
                memoryID: string;
                query: string;
                topK?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResult"];
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetrievalError"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetrievalError"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetrievalError"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetrievalError"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetrievalError"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetrievalError"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetrievalError"];
                };
            };
        };
    };
    createMessage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMessageRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Message"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMessagesGetId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Message"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMessages: {
        parameters: {
            query?: {
                customerUserID?: string;
                limit?: number;
                nextToken?: string;
                previousToken?: string;
                role?: "norole" | "system" | "assistant" | "user" | "function" | "tool";
                sessionID?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        messages: {
                            content: string;
                            contentTruncated: boolean;
                            /** Format: date-time */
                            createdAt: string;
                            customerUserID: string | null;
                            id: string;
                            /** @enum {string} */
                            role: "norole" | "system" | "assistant" | "user" | "function" | "tool";
                            sessionID: string;
                            /** Format: date-time */
                            updatedAt: string;
                            userID: string;
                        }[];
                        nextToken: string | null;
                        previousToken: string | null;
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    searchMessages: {
        parameters: {
            query: {
                after?: string;
                before?: string;
                customerUserID?: string;
                /** @description A JSON object (URL-encoded) whose conditions all hold for every result: fileIDs, fileTypes, sessionIDs, customerUserIDs, roles (arrays: any of), sourceKeyPrefix (string), metadata (object: each key equals the string, or one of the array of strings) */
                filter?: string;
                query: string;
                role?: "norole" | "system" | "assistant" | "user" | "function" | "tool";
                sessionID?: string;
                topK?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        messages: components["schemas"]["MessageHit"][];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSessionRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Session"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    endSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Session"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Session"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSessionSummary: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SessionSummary"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            createdAt: string;
                            email: string;
                            firstName: string | null;
                            id: string;
                            lastName: string | null;
                            owner: string;
                            phone: string | null;
                            /** Format: date-time */
                            updatedAt: string;
                            userID: string;
                        };
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"];
                        /** @enum {string} */
                        status: "success";
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found (not_found), also for another account's ids */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: {
                limit?: number;
                nextToken?: string;
                previousToken?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        nextToken: string | null;
                        previousToken: string | null;
                        /** @enum {string} */
                        status: "success";
                        users: components["schemas"]["User"][];
                    };
                };
            };
            /** @description Invalid input (bad_request): the message names the field and the problem */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key missing (unauthorized) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description API key invalid (forbidden) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Body too large (bad_request) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limited (rate_limited) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal failure (error, or internal server error on lists) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}

/** Every operation's method and path, by operation id. */
export const OPERATIONS = {
  addMemoryFiles: { method: 'post', path: '/memories/add-files' },
  addMemorySessions: { method: 'post', path: '/memories/add-sessions' },
  createFile: { method: 'post', path: '/files/create' },
  createMemory: { method: 'post', path: '/memories/create' },
  createMessage: { method: 'post', path: '/messages/create' },
  createSession: { method: 'post', path: '/sessions/create' },
  createUploadUrl: { method: 'post', path: '/files/upload-url' },
  createUser: { method: 'post', path: '/users/create' },
  deleteFile: { method: 'delete', path: '/files/delete/{id}' },
  deleteMemory: { method: 'delete', path: '/memories/delete/{id}' },
  deleteMessage: { method: 'delete', path: '/messages/delete/{id}' },
  deleteSession: { method: 'delete', path: '/sessions/delete/{id}' },
  deleteUser: { method: 'delete', path: '/users/delete/{id}' },
  endSession: { method: 'post', path: '/sessions/end/{id}' },
  exportMemory: { method: 'post', path: '/memories/export/{id}' },
  findMemoryEntities: { method: 'get', path: '/memories/entities/{id}' },
  getAccount: { method: 'get', path: '/account' },
  getFile: { method: 'get', path: '/files/get/{id}' },
  getFilesImportId: { method: 'get', path: '/files/import/{id}' },
  getHealth: { method: 'get', path: '/healthz' },
  getMemory: { method: 'get', path: '/memories/get/{id}' },
  getMemoryExport: { method: 'get', path: '/memories/export/{id}' },
  getMemoryGraph: { method: 'get', path: '/memories/graph/{id}' },
  getMemoryProfile: { method: 'get', path: '/memories/profile/{id}' },
  getMessagesGetId: { method: 'get', path: '/messages/get/{id}' },
  getOpenApiDocument: { method: 'get', path: '/openapi.json' },
  getSession: { method: 'get', path: '/sessions/get/{id}' },
  getSessionSummary: { method: 'get', path: '/sessions/summary/{id}' },
  getUser: { method: 'get', path: '/users/get/{id}' },
  listFiles: { method: 'get', path: '/files/list' },
  listMemories: { method: 'get', path: '/memories/list' },
  listMessages: { method: 'get', path: '/messages/list' },
  listUsers: { method: 'get', path: '/users/list' },
  postFilesImport: { method: 'post', path: '/files/import' },
  postFilesResyncId: { method: 'post', path: '/files/resync/{id}' },
  removeMemoryFile: { method: 'delete', path: '/memories/delete-file' },
  removeMemorySessions: { method: 'post', path: '/memories/remove-sessions' },
  restoreMemory: { method: 'post', path: '/memories/restore' },
  searchMemory: { method: 'get', path: '/memory' },
  searchMessages: { method: 'get', path: '/messages/search' },
  setFileMetadata: { method: 'post', path: '/files/metadata/{id}' },
  startIngestion: { method: 'post', path: '/memories/start-ingestion' },
  uploadFile: { method: 'post', path: '/files/upload' },
} as const;
