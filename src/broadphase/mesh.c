/* Mesh objects: creation with validation, OBJ loading, accessors. The tree is built in mesh_build.c and
 * queried in mesh_query.c. */
#include <math.h>
#include <string.h>

#include "mesh_internal.h"

#define MESH_COOKIE 0x4d455348 /* "MESH" */

px_mesh_def px_mesh_default_def(void)
{
    px_mesh_def def;
    memset(&def, 0, sizeof(def));
    def.leaf_triangles = 4;
    def.sah_bins = 16;
    def.internal_value = MESH_COOKIE;
    return def;
}

static void mesh_free_arrays(px_mesh* m)
{
    pxi_free(&m->allocator, m->vertices, (size_t)m->vertex_count * 3 * sizeof(float));
    pxi_free(&m->allocator, m->indices, (size_t)m->triangle_count * 3 * sizeof(int32_t));
    m->vertices = NULL;
    m->indices = NULL;
}

px_status px_mesh_create(const float* vertices, int vertex_count, const int32_t* indices, int triangle_count,
                         const px_mesh_def* def, px_mesh** mesh)
{
    if (mesh == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    *mesh = NULL;
    px_mesh_def d = def != NULL ? *def : px_mesh_default_def();
    px_allocator alloc;
    if (d.internal_value != MESH_COOKIE || d.leaf_triangles < 1 || d.leaf_triangles > PX_MESH_MAX_LEAF_TRIANGLES ||
        d.sah_bins < 4 || d.sah_bins > 64 || pxi_allocator_resolve(&d.allocator, &alloc) != PX_OK)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    if (vertex_count < 0 || vertex_count > PX_MESH_MAX_COUNT || triangle_count < 0 ||
        triangle_count > PX_MESH_MAX_COUNT || (vertices == NULL && vertex_count > 0) ||
        (indices == NULL && triangle_count > 0))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    for (int i = 0; i < 3 * triangle_count; ++i)
    {
        if (indices[i] < 0 || indices[i] >= vertex_count)
        {
            return PX_ERR_INVALID_ARGUMENT;
        }
    }
    for (int i = 0; i < 3 * triangle_count; ++i)
    {
        const float* v = &vertices[3 * indices[i]];
        if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
        {
            return PX_ERR_NON_FINITE;
        }
    }

    px_mesh* m = pxi_alloc(&alloc, sizeof(px_mesh));
    if (m == NULL)
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    memset(m, 0, sizeof(*m));
    m->allocator = alloc;
    m->use_avx2 = pxi_mesh_cpu_has_avx2();
    m->vertex_count = vertex_count;
    m->triangle_count = triangle_count;
    if (vertex_count > 0)
    {
        m->vertices = pxi_alloc(&alloc, (size_t)vertex_count * 3 * sizeof(float));
    }
    if (triangle_count > 0)
    {
        m->indices = pxi_alloc(&alloc, (size_t)triangle_count * 3 * sizeof(int32_t));
    }
    if ((vertex_count > 0 && m->vertices == NULL) || (triangle_count > 0 && m->indices == NULL))
    {
        mesh_free_arrays(m);
        pxi_free(&alloc, m, sizeof(px_mesh));
        return PX_ERR_OUT_OF_MEMORY;
    }
    if (vertex_count > 0)
    {
        memcpy(m->vertices, vertices, (size_t)vertex_count * 3 * sizeof(float));
    }
    if (triangle_count > 0)
    {
        memcpy(m->indices, indices, (size_t)triangle_count * 3 * sizeof(int32_t));
    }
    px_status status = pxi_mesh_build(m, d.leaf_triangles, d.sah_bins, d.tasks);
    if (status != PX_OK)
    {
        mesh_free_arrays(m);
        pxi_free(&alloc, m, sizeof(px_mesh));
        return status;
    }
    *mesh = m;
    return PX_OK;
}

px_status px_mesh_load_obj_report(const char* path, const px_mesh_def* def, px_mesh** mesh, px_obj_error* error)
{
    if (mesh != NULL)
    {
        *mesh = NULL;
    }
    if (path == NULL || mesh == NULL)
    {
        if (error != NULL)
        {
            error->line = 0;
            strcpy(error->message, "invalid argument");
        }
        return PX_ERR_INVALID_ARGUMENT;
    }
    const px_allocator* alloc = def != NULL ? &def->allocator : NULL;
    px_obj_data data = { 0 };
    px_obj_error local;
    px_obj_error* err = error != NULL ? error : &local;
    px_status status = px_obj_load(path, alloc, &data, err);
    if (PX_FAILED(status))
    {
        return status;
    }
    status = px_mesh_create(data.vertices, data.vertex_count, data.indices, data.triangle_count, def, mesh);
    px_obj_free(&data);
    if (PX_FAILED(status))
    {
        err->line = 0;
        strcpy(err->message, status == PX_ERR_OUT_OF_MEMORY ? "out of memory" : "invalid mesh or options");
    }
    return status;
}

px_status px_mesh_load_obj(const char* path, const px_mesh_def* def, px_mesh** mesh)
{
    return px_mesh_load_obj_report(path, def, mesh, NULL);
}

void px_mesh_destroy(px_mesh* mesh)
{
    if (mesh == NULL)
    {
        return;
    }
    px_allocator alloc = mesh->allocator;
    pxi_mesh_free_tree(mesh);
    mesh_free_arrays(mesh);
    pxi_free(&alloc, mesh, sizeof(px_mesh));
}

int px_mesh_triangle_count(const px_mesh* mesh)
{
    return mesh != NULL ? mesh->triangle_count : 0;
}

int px_mesh_vertex_count(const px_mesh* mesh)
{
    return mesh != NULL ? mesh->vertex_count : 0;
}

const float* px_mesh_vertices(const px_mesh* mesh)
{
    return mesh != NULL ? mesh->vertices : NULL;
}

const int32_t* px_mesh_indices(const px_mesh* mesh)
{
    return mesh != NULL ? mesh->indices : NULL;
}

px_aabb px_mesh_bounds(const px_mesh* mesh)
{
    if (mesh != NULL)
    {
        return mesh->bounds;
    }
    px_aabb box = { { INFINITY, INFINITY, INFINITY }, { -INFINITY, -INFINITY, -INFINITY } };
    return box;
}

px_mesh_stats px_mesh_get_stats(const px_mesh* mesh)
{
    px_mesh_stats s;
    memset(&s, 0, sizeof(s));
    if (mesh == NULL)
    {
        return s;
    }
    s.node_count = mesh->node_count;
    s.leaf_count = mesh->leaf_count;
    s.depth = mesh->depth;
    s.sah_cost = mesh->sah_cost;
    s.memory_bytes = sizeof(px_mesh) + (size_t)mesh->vertex_count * 3 * sizeof(float) +
                     (size_t)mesh->triangle_count * 3 * sizeof(int32_t) +
                     (size_t)mesh->node_count * sizeof(pxi_mesh_node) +
                     (size_t)mesh->packet_count * sizeof(pxi_mesh_packet);
    return s;
}
